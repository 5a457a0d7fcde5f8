package model_test

import (
	"reflect"
	"testing"

	"github.com/lockstep-sim/lockstep/model"
)

// TestLeaseResetIsANewLease: retry resets the lease field by field before
// each attempt (a literal would cost its frame a temporary). Every field,
// set to something, must come out as Lease{Token, Start, Nodes[:0]} has it;
// a field added to Lease and forgotten in reset keeps its old value and
// fails here.
func TestLeaseResetIsANewLease(t *testing.T) {
	var l model.Lease
	v := reflect.ValueOf(&l).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("old")
		case reflect.Int64:
			f.SetInt(41)
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 2, 4))
		default:
			t.Fatalf("Lease.%s is a %s: teach this test to set it", v.Type().Field(i).Name, f.Kind())
		}
	}
	nodes := l.Nodes
	model.ResetLease(&l, "A-2", 7)
	want := model.Lease{Token: "A-2", Start: 7, Nodes: nodes[:0]}
	if !reflect.DeepEqual(l, want) {
		t.Fatalf("reset lease = %+v, want %+v", l, want)
	}
	if cap(l.Nodes) != cap(nodes) || len(l.Nodes) != 0 {
		t.Errorf("reset lease's Nodes: len %d cap %d, want len 0 cap %d (the storage is reused)", len(l.Nodes), cap(l.Nodes), cap(nodes))
	}
}
