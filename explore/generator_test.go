package explore

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
)

func TestParseKinds(t *testing.T) {
	ks, err := ParseKinds(" pause, failover ,slow")
	if err != nil || !reflect.DeepEqual(ks, []faults.Kind{faults.Pause, faults.Failover, faults.Slow}) {
		t.Fatalf("ParseKinds = %v, %v", ks, err)
	}
	for _, bad := range []string{"", ",", "pause,gc", "pause,pause"} {
		if _, err := ParseKinds(bad); err == nil {
			t.Errorf("ParseKinds(%q): no error", bad)
		}
	}
}

// TestScheduleDeterministic: a schedule is a function of seed and index.
func TestScheduleDeterministic(t *testing.T) {
	s := testScenario(t, "single-failover")
	g := &Generator{W: NewWorld(s, "lua-release"), Kinds: faults.Kinds, MaxFaults: 4, Seed: 7}
	h := *g
	if !reflect.DeepEqual(g.Schedule(3), h.Schedule(3)) {
		t.Fatal("same seed and index, different schedules")
	}
	if reflect.DeepEqual(g.Schedule(3), g.Schedule(4)) {
		t.Error("runs 3 and 4 drew the same schedule")
	}
	h.Seed = 8
	if reflect.DeepEqual(g.Schedule(3), h.Schedule(3)) {
		t.Error("seeds 7 and 8 drew the same schedule for run 3")
	}
}

// TestSchedulesValid: every drawn schedule is within bounds and is a valid
// scenario (so a counterexample file always loads), in a world with
// replicas and in Redlock's five-node world grown from a one-node file.
func TestSchedulesValid(t *testing.T) {
	s := testScenario(t, "single-failover")
	for _, st := range []string{"lua-release", "redlock"} {
		w := NewWorld(s, st)
		g := &Generator{W: w, Kinds: faults.Kinds, MaxFaults: 4, Seed: 1}
		if err := g.Check(); err != nil {
			t.Fatal(err)
		}
		seen := map[faults.Kind]bool{}
		for i := range 300 {
			sched := g.Schedule(i)
			if len(sched) < 1 || len(sched) > 4 {
				t.Fatalf("%s run %d: %d faults", st, i, len(sched))
			}
			if !slices.IsSortedFunc(sched, func(a, b faults.Fault) int { return int(a.At - b.At) }) {
				t.Fatalf("%s run %d: not in time order", st, i)
			}
			for _, f := range sched {
				seen[f.Kind] = true
				if f.At < 0 || f.At >= w.Horizon || f.For > 2*w.TTL || f.By > 2*w.TTL || f.By < -2*w.TTL {
					t.Fatalf("%s run %d: out of bounds: %s", st, i, FaultLine(f))
				}
				if f.Target != "" && !slices.Contains(w.Processes(), f.Target) {
					t.Fatalf("%s run %d: unknown target: %s", st, i, FaultLine(f))
				}
			}
			sc := *w.Base
			sc.Faults = append(sc.Faults, sched...)
			if err := sc.Validate(); err != nil {
				t.Fatalf("%s run %d: %v\n%s", st, i, err, strings.Join(faultLines(sched), "\n"))
			}
		}
		if len(seen) != len(faults.Kinds) {
			t.Errorf("%s: 300 schedules drew only %d of %d kinds", st, len(seen), len(faults.Kinds))
		}
	}
	if w := NewWorld(s, "redlock"); len(w.Masters) != 5 || len(w.Replicas) != 5 {
		t.Errorf("redlock world: masters %v replicas %v, want 5 and 5", w.Masters, w.Replicas)
	}
}

func TestFailoverNeedsReplicas(t *testing.T) {
	g := &Generator{W: NewWorld(testScenario(t, "small"), "lua-release"), Kinds: []faults.Kind{faults.Failover}, MaxFaults: 1}
	if err := g.Check(); err == nil || !strings.Contains(err.Error(), "replicas") {
		t.Errorf("Check = %v, want a replicas error", err)
	}
}

// With sentinels, network faults may strike them and other faults never do,
// and every schedule is a valid scenario.
func TestSentinelTargets(t *testing.T) {
	w := NewWorld(testScenario(t, "single-sentinels"), "lua-release")
	if !reflect.DeepEqual(w.Sentinels, []string{"sentinel-1", "sentinel-2", "sentinel-3"}) {
		t.Fatalf("sentinels %v", w.Sentinels)
	}
	g := &Generator{W: w, Kinds: faults.Kinds, MaxFaults: 4, Seed: 1}
	hit := map[faults.Kind]bool{}
	for i := range 400 {
		sched := g.Schedule(i)
		sc := *w.Base
		for _, f := range sched {
			sc.Faults = append(sc.Faults, f)
			names := append([]string{f.Target}, slices.Concat(f.Groups...)...)
			for _, n := range names {
				if !strings.HasPrefix(n, "sentinel-") {
					continue
				}
				switch f.Kind {
				case faults.Partition, faults.Isolate, faults.Slow:
					hit[f.Kind] = true
				default:
					t.Fatalf("run %d: %s strikes a sentinel", i, FaultLine(f))
				}
			}
		}
		if err := sc.Validate(); err != nil {
			t.Fatalf("run %d: %v\n%s", i, err, strings.Join(faultLines(sched), "\n"))
		}
	}
	if len(hit) != 3 {
		t.Errorf("400 schedules struck sentinels only with %v", hit)
	}
}
