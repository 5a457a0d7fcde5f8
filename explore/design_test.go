package explore

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
)

// An explored strategy runs the design as compare does (scenario.ForStrategy):
// a modifier it cannot run is dropped and listed, never run half-supported.
func TestExploreWorldUsesTheDesignRules(t *testing.T) {
	s := reentrantNested(t)
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

// The search says what a strategy's runs went without, in JSON and in text.
func TestExploreReportsDroppedModifiers(t *testing.T) {
	s := reentrantNested(t)
	res, err := Explore(context.Background(), Config{Scenario: s, Strategies: []string{s.Lock.Strategy, "redlock"},
		Runs: 2, Seed: 1, Workers: 1, MaxFaults: 1})
	if err != nil {
		t.Fatal(err)
	}
	own, red := res.Strategies[0], res.Strategies[1]
	if len(own.Dropped) != 0 || len(red.Dropped) != 1 || red.Dropped[0].Field != "lock.reentrant" {
		t.Fatalf("dropped: own %v, redlock %v", own.Dropped, red.Dropped)
	}
	var b strings.Builder
	res.WriteText(&b)
	if !strings.Contains(b.String(), "redlock: runs without lock.reentrant (") {
		t.Errorf("the text does not say what redlock ran without:\n%s", b.String())
	}
}

func reentrantNested(t *testing.T) *scenario.Scenario { return bundled(t, "reentrant-nested") }

// bundled is the bundled scenario of that name.
func bundled(t *testing.T, name string) *scenario.Scenario {
	t.Helper()
	data, err := os.ReadFile("../scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Load("../scenarios.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// explore takes client profiles where it takes strategies: the runs of a
// profile run its library's design (scenario.ProfileLock), on the masters
// its strategy needs.
func TestExploreAcceptsProfiles(t *testing.T) {
	s := reentrantNested(t)
	for _, c := range []struct{ name, strategy string }{{"redsync", "redlock"}, {"redisson", "lua-release"}} {
		w := NewWorld(s, c.name)
		if err := w.check(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		l := w.Base.Lock
		if l.Strategy != c.strategy || l.Client != c.name || w.Base.Redis.Nodes != scenario.NodesFor(c.strategy, s.Redis.Nodes) {
			t.Errorf("%s: explored strategy %s client %q on %d nodes", c.name, l.Strategy, l.Client, w.Base.Redis.Nodes)
		}
	}
	if w := NewWorld(s, "redsync"); w.Base.Lock.Retry == nil || w.Base.Lock.Retry.Attempts != 32 {
		t.Errorf("redsync's runs should retry 32 times, got %+v", w.Base.Lock.Retry)
	}
}
