package explore

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
)

// TestShrinkToOnePause: a noisy violating schedule shrinks to the one pause
// that matters, and the result is minimal: no single step keeps it.
func TestShrinkToOnePause(t *testing.T) {
	w := NewWorld(testScenario(t, "small"), "lua-release")
	sched := []faults.Fault{
		{At: 300 * time.Millisecond, Kind: faults.Pause, Target: "A", For: 5500 * time.Millisecond},
		{At: 1200 * time.Millisecond, Kind: faults.ClockJump, Target: "B", By: -2 * time.Second},
		{At: 9 * time.Second, Kind: faults.Partition, Groups: [][]string{{"A", "redis-1"}, {"B"}}, For: 3 * time.Second},
	}
	sh, err := Shrink(context.Background(), w, sched, 0)
	if err != nil {
		t.Fatal(err)
	}
	if sh.Report.Violations == 0 || !sh.Minimal {
		t.Fatalf("violations %d, minimal %t", sh.Report.Violations, sh.Minimal)
	}
	if len(sh.Faults) != 1 || sh.Faults[0].Kind != faults.Pause {
		t.Fatalf("shrunk to %v, want one pause", faultLines(sh.Faults))
	}
	if p := sh.Faults[0]; p.For >= 5500*time.Millisecond || p.At >= 300*time.Millisecond {
		t.Errorf("pause not shortened or moved: %s", FaultLine(p))
	}
	t.Logf("shrunk in %d runs to %v", sh.Runs, faultLines(sh.Faults))
	// Minimal means exactly this: no single step keeps the violation.
	for _, f := range simpler(sh.Faults[0]) {
		rep, err := runOnce(t.Context(), w, []faults.Fault{f})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Violations > 0 {
			t.Errorf("step %s still violates", FaultLine(f))
		}
	}
}

func TestShrinkSafeScheduleUnchanged(t *testing.T) {
	w := NewWorld(testScenario(t, "small"), "lua-release")
	sched := []faults.Fault{{At: time.Second, Kind: faults.Pause, Target: "B", For: 10 * time.Millisecond}}
	sh, err := Shrink(context.Background(), w, sched, 0)
	if err != nil {
		t.Fatal(err)
	}
	if sh.Report.Violations != 0 || !slices.EqualFunc(sh.Faults, sched, func(a, b faults.Fault) bool { return a.String() == b.String() && a.At == b.At }) || sh.Runs != 1 {
		t.Errorf("safe schedule: %v after %d runs", faultLines(sh.Faults), sh.Runs)
	}
}

func TestShrinkBudget(t *testing.T) {
	w := NewWorld(testScenario(t, "small"), "lua-release")
	sched := []faults.Fault{
		{At: 300 * time.Millisecond, Kind: faults.Pause, Target: "A", For: 5500 * time.Millisecond},
		{At: 1200 * time.Millisecond, Kind: faults.ClockJump, Target: "B", By: -2 * time.Second},
	}
	sh, err := Shrink(context.Background(), w, sched, 3)
	if err != nil {
		t.Fatal(err)
	}
	if sh.Runs > 3 || sh.Minimal || sh.Report.Violations == 0 {
		t.Errorf("budget 3: %d runs, minimal %t, violations %d", sh.Runs, sh.Minimal, sh.Report.Violations)
	}
}

func TestSimplerSteps(t *testing.T) {
	f := faults.Fault{At: 1500 * time.Millisecond, Kind: faults.ClockJump, Target: "redis-1", By: -3 * time.Second}
	for _, g := range simpler(f) {
		if g.By >= 0 || g.By < f.By && g.At == f.At {
			t.Errorf("jump step %s: sign lost or size grew", FaultLine(g))
		}
		if g.At > f.At {
			t.Errorf("step %s moves the fault later", FaultLine(g))
		}
	}
	p := faults.Fault{Kind: faults.Partition, For: time.Second, Groups: [][]string{{"A", "redis-1"}, {"B"}}}
	var members int
	for _, g := range simpler(p) {
		if len(g.Groups[0])+len(g.Groups[1]) == 2 {
			members++
		}
		if len(g.Groups[1]) == 0 {
			t.Errorf("step empties a group: %v", g.Groups)
		}
	}
	if members != 2 || len(p.Groups[0]) != 2 {
		t.Errorf("member-removal steps: %d (want 2), original changed: %v", members, p.Groups)
	}
}
