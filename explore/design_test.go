package explore

import (
	"os"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
)

// An explored strategy runs the design as compare does (scenario.ForStrategy):
// a modifier it cannot run is dropped and listed, never run half-supported.
func TestExploreWorldUsesTheDesignRules(t *testing.T) {
	data, err := os.ReadFile("../scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Load("../scenarios.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Find("reentrant-nested")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Lock.Reentrant {
		t.Fatal("reentrant-nested is not reentrant any more; pick another scenario")
	}
	for _, st := range []string{"redlock", "set-del", "setnx-del"} {
		w := NewWorld(s, st)
		want, _, err := scenario.ForStrategy(s, st)
		if err != nil {
			t.Fatal(err)
		}
		if w.Base.Lock.Reentrant || w.Base.Lock.Reentrant != want.Lock.Reentrant || len(w.Dropped) == 0 {
			t.Errorf("%s: explored design reentrant=%v dropped %v; compare runs reentrant=%v", st,
				w.Base.Lock.Reentrant, w.Dropped, want.Lock.Reentrant)
		}
		if err := w.check(); err != nil {
			t.Errorf("%s: %v", st, err)
		}
	}
	if w := NewWorld(s, s.Lock.Strategy); !w.Base.Lock.Reentrant || len(w.Dropped) != 0 {
		t.Errorf("own strategy: reentrant=%v dropped %v", w.Base.Lock.Reentrant, w.Dropped)
	}
}
