package faults

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// Every kind in the table says everything the loader, validator, exporter,
// explorer and TUI ask of it, and its fields are of a type they can read.
func TestTableIsComplete(t *testing.T) {
	seen := map[Kind]bool{}
	for _, s := range Specs() {
		if s.Kind == "" || seen[s.Kind] {
			t.Fatalf("kind %q empty or twice", s.Kind)
		}
		seen[s.Kind] = true
		if s.Doc == "" || len(s.Fields) == 0 || s.Describe == nil || s.Generate == nil || s.Check == nil {
			t.Errorf("%s: missing doc, fields, describe, generate or check", s.Kind)
		}
		if s.OnClient == nil && s.OnNode == nil && s.OnSentinel == nil && s.Untargeted == nil {
			t.Errorf("%s: applies to nothing", s.Kind)
		}
		if (s.Targets == nil) == s.Uses(FieldTarget) {
			t.Errorf("%s: has a target field but no targets, or targets but no target field", s.Kind)
		}
		for _, fd := range s.Fields {
			var f Fault
			switch fd.Ptr(&f).(type) {
			case *string, *time.Duration, *float64, *[][]string:
			default:
				t.Errorf("%s.%s: a field of type %T cannot be loaded", s.Kind, fd.Name, fd.Ptr(&f))
			}
			if fd != FieldTarget && !slices.Contains(shrinkOrder, fd) {
				t.Errorf("%s.%s: the shrinker never tries it", s.Kind, fd.Name)
			}
		}
		if Lookup(s.Kind) != s {
			t.Errorf("Lookup(%s) is not its spec", s.Kind)
		}
	}
	if Lookup("nope") != nil {
		t.Error("Lookup of an unknown kind")
	}
}

// A kind draws only the fields it has (so that an export writes everything
// the run used), and a target the kind accepts.
func TestGenerateUsesOnlyItsFields(t *testing.T) {
	names := NamesFor([]string{"A", "B"}, 2, 1, 3)
	g := &Gen{R: rand.New(rand.NewPCG(1, 2)), Names: names, TTL: 10 * time.Second}
	for _, s := range Specs() {
		for range 50 {
			f := Generate(g, s.Kind)
			var zero Fault
			for _, fd := range []*Field{FieldTarget, FieldFor, FieldRestartAfter, FieldBy, FieldRate, FieldGroups, FieldLatency, FieldLoss} {
				if s.Uses(fd) {
					continue
				}
				a, b := fd.Ptr(&f), fd.Ptr(&zero)
				if !equalField(a, b) {
					t.Fatalf("%s drew %s, which it does not have: %+v", s.Kind, fd.Name, f)
				}
			}
			if s.Targets != nil && !slices.Contains(s.Targets(names), f.Target) {
				t.Fatalf("%s drew target %q, not one of %v", s.Kind, f.Target, s.Targets(names))
			}
		}
	}
}

func equalField(a, b any) bool {
	switch x := a.(type) {
	case *string:
		return *x == *b.(*string)
	case *time.Duration:
		return *x == *b.(*time.Duration)
	case *float64:
		return *x == *b.(*float64)
	case *[][]string:
		return len(*x) == len(*b.(*[][]string))
	}
	return false
}

// Shrinking steps only touch the kind's own fields and each makes the fault
// strictly smaller in the field it changes.
func TestSimplerOnlyShrinks(t *testing.T) {
	f := Fault{Kind: Slow, Target: "A", Latency: 1500 * time.Millisecond, Loss: 0.4, For: 20 * time.Second, Rate: 3}
	steps := Simpler(f)
	if len(steps) == 0 {
		t.Fatal("no steps")
	}
	for _, g := range steps {
		if g.Rate != f.Rate {
			t.Fatalf("a slow's shrink changed rate, a field slow does not have: %+v", g)
		}
		if g.For > f.For || g.Latency > f.Latency || g.Loss > f.Loss || (g.For == f.For && g.Latency == f.Latency && g.Loss == f.Loss) {
			t.Fatalf("not smaller: %+v", g)
		}
	}
}
