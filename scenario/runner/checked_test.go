package runner

import (
	"context"
	"slices"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
	"github.com/lockstep-sim/lockstep/sim"
)

// A run under a context (Run's kernel runs between two checks of it)
// takes the steps a run stepped one event at a time takes, and
// KernelSteps counts them as they run: a sink reads, at every trace
// event, the count it reads when the runner steps.
func TestCheckedRunCountsAsItSteps(t *testing.T) {
	counts := func(run func(r *Runner)) ([]int64, int64) {
		s := scenariotest.Scenario(t, "counter-30x200-loopback")
		r := newRunnerT(t, s, scenario.Options{Context: context.Background()})
		defer r.Close()
		var seen []int64
		r.OnEvent(func(sim.Event) { seen = append(seen, r.KernelSteps()) })
		run(r)
		return seen, r.Report().KernelSteps
	}
	stepped, total := counts(func(r *Runner) { r.RunUntil(r.S.Duration + 1) })
	checked, checkedTotal := counts(func(r *Runner) { r.Run() })
	if total < 2*scenario.CancelCheckEvery || checkedTotal != total {
		t.Fatalf("kernel events: stepped %d, checked %d", total, checkedTotal)
	}
	if !slices.Equal(checked, stepped) {
		t.Errorf("KernelSteps at the %d trace events of a checked run differ from those at the %d of a stepped one", len(checked), len(stepped))
	}
}
