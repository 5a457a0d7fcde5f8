package explore

import (
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// The "done means", on the worlds of testdata/worlds.yaml. Seeds
// are chosen so that a violating run comes early and the tests stay quick.

// TestRedlockFiveNodesBreaks: five Redlock masters under pauses, clock
// jumps and partitions: a violation is found and shrunk to a few faults.
func TestRedlockFiveNodesBreaks(t *testing.T) {
	s := testScenario(t, "redlock-5x3")
	res := explored(t, Config{Scenario: s, Kinds: parseKinds(t, "pause,clock_jump,partition"), Runs: 40, Seed: 4, OutDir: t.TempDir()})
	checkFound(t, res.Strategies[0], 3)
}

// TestFailoverBreaksSingleInstance: one master with an asynchronous replica
// under failovers: a failover before the key replicates loses the lock.
func TestFailoverBreaksSingleInstance(t *testing.T) {
	s := testScenario(t, "single-failover")
	res := explored(t, Config{Scenario: s, Kinds: parseKinds(t, "failover"), Runs: 20, Seed: 1, OutDir: t.TempDir()})
	checkFound(t, res.Strategies[0], 1)
}

// checkFound: sr has a minimal counterexample of at most maxFaults faults,
// written to a file that replays it.
func checkFound(t *testing.T, sr *StrategyResult, maxFaults int) {
	t.Helper()
	cx := sr.Counterexample
	if cx == nil {
		t.Fatalf("%s: no violation in %d runs", sr.Strategy, sr.Runs)
	}
	t.Logf("%s: %d/%d unsafe; run %d shrunk from %d to %d fault(s) in %d runs: %v", sr.Strategy,
		sr.Violations.Count, sr.Runs, cx.Run, len(cx.OriginalFaults), len(cx.Faults), cx.ShrinkRuns, cx.Faults)
	if len(cx.Faults) > maxFaults || !cx.Minimal {
		t.Errorf("shrunk to %d fault(s) (minimal %t), want at most %d", len(cx.Faults), cx.Minimal, maxFaults)
	}
	f, err := scenario.LoadFile(cx.File)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(f.Scenarios[0], scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if rep := r.Run(); !rep.OK || rep.Safe || rep.TraceHash != cx.TraceHash {
		t.Errorf("replay of %s: ok %t, safe %t, trace %s (want %s)", cx.File, rep.OK, rep.Safe, rep.TraceHash, cx.TraceHash)
	}
}
