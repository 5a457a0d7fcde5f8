package runner

import (
	"context"
	"maps"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
	"github.com/lockstep-sim/lockstep/sim"
)

// TestCancelInsideARun cancels the run's context from inside the
// simulation, at trace event n (a sink, so the moment is a count, not a
// time), and checks that the run stops within CancelCheckEvery kernel
// events of it, reported as cancelled and not as an exhausted budget. The
// configuration would otherwise run into its (larger) budget.
func TestCancelInsideARun(t *testing.T) {
	for _, n := range []int{1, 10, 500, 1023, 1024, 1025, 5000} {
		ctx, cancel := context.WithCancel(context.Background())
		s := hangingScenario(hangingConfigs["watchdog every 1ns, latency 0"])
		r := newRunnerT(t, s, scenario.Options{EventBudget: 100 * scenario.CancelCheckEvery, Context: ctx})
		cancelledAt := int64(-1)
		r.OnEvent(func(sim.Event) {
			if r.EventCount() == n && cancelledAt < 0 {
				cancelledAt = r.KernelSteps()
				cancel()
			}
		})
		rep := r.Run()
		r.Close()
		if cancelledAt < 0 {
			t.Fatalf("event %d: the run never reached it", n)
		}
		after := rep.KernelSteps - cancelledAt
		if !rep.Cancelled || rep.BudgetExhausted || rep.OK {
			t.Errorf("event %d: cancelled %t, budget_exhausted %t, ok %t: want a cancelled, failed run", n, rep.Cancelled, rep.BudgetExhausted, rep.OK)
		}
		if after < 1 || after > scenario.CancelCheckEvery {
			t.Errorf("event %d: cancelled after %d kernel events, ran %d more; want 1..%d", n, cancelledAt, after, scenario.CancelCheckEvery)
		}
		if v := rep.Verdict(); !strings.HasPrefix(v, "CANCELLED (") {
			t.Errorf("event %d: verdict %q", n, v)
		}
		ev := r.Events()
		if len(ev) < 2 || ev[len(ev)-2].Kind != "cancelled" || !strings.HasPrefix(ev[len(ev)-2].Msg, "run cancelled at t=") {
			t.Errorf("event %d: the trace does not end with the cancellation: %v", n, ev[len(ev)-2:])
		}
	}
}

// TestCancelledBeforeStart: a context already cancelled stops the run
// before its first event.
func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := newRunnerT(t, scenariotest.Scenario(t, "gc-pause-lua-release"), scenario.Options{Context: ctx})
	defer r.Close()
	if rep := r.Run(); !rep.Cancelled || rep.KernelSteps != 0 {
		t.Errorf("cancelled %t after %d kernel events, want cancelled after 0", rep.Cancelled, rep.KernelSteps)
	}
}

// TestCloseReleasesEveryCoroutine: whatever way a run ended (exhausted with
// every thread parked mid-request, cancelled, finished, never started),
// Close ends every simulated thread, so no goroutine outlives the runner.
// Close is synchronous, so the count is exact, not a matter of waiting. It
// counts coroutines (iter.Pull, what a simulated thread runs on), not all
// goroutines: miniredis serves its in-process connections on goroutines of
// its own that come and go on their own schedule.
func TestCloseReleasesEveryCoroutine(t *testing.T) {
	cases := map[string]func() *Runner{
		"exhausted": func() *Runner {
			r := newRunnerT(t, hangingScenario(hangingConfigs["watchdog every 1ns, latency 0"]), scenario.Options{EventBudget: testBudget})
			r.Run()
			return r
		},
		"exhausted mid-retry": func() *Runner {
			r := newRunnerT(t, hangingScenario(hangingConfigs["retry 1e9 attempts, delay 0, during a pause of the holder"]), scenario.Options{EventBudget: testBudget})
			r.Run()
			return r
		},
		"cancelled": func() *Runner {
			ctx, cancel := context.WithCancel(context.Background())
			r := newRunnerT(t, hangingScenario(hangingConfigs["redlock retry 1e9 attempts, delay 0, latency 0"]), scenario.Options{Context: ctx})
			r.OnEvent(func(sim.Event) {
				if r.EventCount() == 100 {
					cancel()
				}
			})
			r.Run()
			return r
		},
		"finished": func() *Runner {
			r := newRunnerT(t, scenariotest.Scenario(t, "gc-pause-lua-release"), scenario.Options{})
			r.Run()
			return r
		},
		"never started": func() *Runner {
			return newRunnerT(t, scenariotest.Scenario(t, "gc-pause-lua-release"), scenario.Options{})
		},
		"stepped a little": func() *Runner {
			r := newRunnerT(t, scenariotest.Scenario(t, "gc-pause-lua-release"), scenario.Options{})
			for range 5 {
				r.Step()
			}
			return r
		},
	}
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		run := cases[name]
		before := coroutines()
		r := run()
		during := coroutines()
		r.Close()
		if during <= before && name != "finished" { // a finished run's threads have all returned
			t.Errorf("%s: the run holds no coroutine (%d before, %d during): this test sees nothing", name, before, during)
		}
		if after := coroutines(); after != before {
			t.Errorf("%s: %d coroutines before the run, %d during, %d after Close", name, before, during, after)
		}
	}
}

// coroutines counts the goroutines that are coroutines: those of simulated
// threads.
func coroutines() int {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "runtime.corostart") || strings.Contains(g, "iter.Pull") {
			count++
		}
	}
	return count
}
