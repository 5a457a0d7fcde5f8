package prebuilt

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
)

// bundledFile reads the scenarios.yaml the table is made from.
func bundledFile(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../../scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTableIsLoad holds the table to scenario.Load of the bundled file:
// every scenario it builds equals Load's, field for field, in file order,
// and Load with no name is Load's whole file. (That table.go is what the
// generator writes today is scenario's TestPrebuiltTable.)
func TestTableIsLoad(t *testing.T) {
	data := bundledFile(t)
	f, err := scenario.Load("scenarios.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(table) != len(f.Scenarios) {
		t.Fatalf("the table holds %d scenarios, the file %d: run go test ./scenario -run TestPrebuiltTable -update", len(table), len(f.Scenarios))
	}
	for i, s := range f.Scenarios {
		if e := table[i]; e.name != s.Name || !reflect.DeepEqual(e.make(), s) {
			t.Errorf("table entry %d (%s) differs from Load's %s", i, e.name, s.Name)
		}
	}
	if all, err := Load("scenarios.yaml", data, nil); err != nil || !reflect.DeepEqual(all, f) {
		t.Errorf("Load(nil) is not scenario.Load's file (err %v)", err)
	}
	if a, b := table[0].make(), table[0].make(); a == b || &a.Clients[0] == &b.Clients[0] {
		t.Error("two builds of a scenario share memory: one run could change another's")
	}
}

// TestLoadIsLoadSelected holds Load to scenario.LoadSelected for each
// bundled scenario alone, for several at once (in another order, one
// twice), and for names the table cannot answer for, whose errors must be
// LoadSelected's; and the table is not used for a file it was not made
// from.
func TestLoadIsLoadSelected(t *testing.T) {
	data := bundledFile(t)
	var sets [][]string
	for _, e := range table {
		sets = append(sets, []string{e.name})
	}
	last := table[len(table)-1].name
	sets = append(sets, []string{last, table[0].name, last}, []string{"no-such-scenario"}, []string{""}, []string{last, "no-such-scenario"})
	for _, names := range sets {
		got, gotErr := Load("scenarios.yaml", data, names)
		want, wantErr := scenario.LoadSelected("scenarios.yaml", data, names)
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("Load(%q) = %v, %v; LoadSelected gives %v, %v", names, got, gotErr, want, wantErr)
		}
	}
	edited := bytes.Clone(data)
	edited[len(edited)/2] ^= 1
	if Fits(edited, nil) {
		t.Error("the table answers for a file that is not the one it was made from")
	}
	if !Fits(data, []string{last}) || Fits(data, []string{last, ""}) {
		t.Error("Fits is wrong about the bundled file's names")
	}
}
