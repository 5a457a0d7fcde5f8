package scenario_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// The loader refuses a scenario whose planned work is beyond the event
// budget; that is only fair if the estimate never exceeds what a run really
// takes. Every bundled scenario, and worlds built to stress each term
// (renewals, nested holds, Redlock's masters), must take at least the kernel
// events PlannedEvents predicts. (A hold whose acquire fails is skipped, so
// the worlds built here do not contend: one client plans every hold.)
func TestPlannedEventsIsALowerBound(t *testing.T) {
	scenarios := scenariotest.File(t).Scenarios
	extra := ""
	for i, w := range []struct{ latency, lock, nested string }{
		{"0s", "strategy: lua-release, watchdog: {every: 10ms}", "0"},
		{"1ms", "strategy: redlock, watchdog: {every: 10ms}", "0"},
		{"0s", "strategy: redlock, redlock: {parallel: true}, watchdog: {every: 1ms, max_renewals: 3}", "0"},
		{"0s", "strategy: lua-release, reentrant: true, watchdog: {every: 1ms}", "4"},
		{"2ms", "strategy: lua-release, reentrant: true", "100"},
		{"0s, jitter: 100ms", "strategy: lua-release, watchdog: {every: 10ms}", "0"},
		{"20ms, jitter: 30ms", "strategy: redlock, timeout: 25ms, watchdog: {every: 10ms}", "0"},
	} {
		extra += fmt.Sprintf("  - name: s%d\n    duration: 2m\n    network: {latency: %s}\n    lock: {key: k, ttl: 5s, %s}\n"+
			"    clients: [{name: A, holds: 20, work: 3s, nested: %s}]\n", i, w.latency, w.lock, w.nested)
	}
	f, err := scenario.Load("extra.yaml", []byte("version: 1\nscenarios:\n"+extra))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(scenarios, f.Scenarios...) {
		holds, renewals := scenario.PlannedEvents(s, "")
		// The run need only go as far as the plan: one that spends a
		// budget of exactly the planned events took at least that many.
		planned := int64(math.Ceil(holds + renewals))
		r, err := runner.New(s, scenario.Options{EventBudget: planned}, false)
		if err != nil {
			t.Fatal(err)
		}
		rep := r.Run()
		r.Close()
		if !rep.BudgetExhausted && rep.KernelSteps < planned {
			t.Errorf("%s: planned %d events (%.0f holds, %.0f renewals), the run took %d", s.Name, planned, holds, renewals, rep.KernelSteps)
		}
	}
}
