package runner

import (
	"bytes"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// testBudget is a small event budget, so that the hanging configurations
// below end in a few milliseconds of real time.
const testBudget = 10_000

// hangingScenario is a plain two-client scenario built in Go, bypassing the
// loader (which refuses the configurations these tests need), changed by mut.
func hangingScenario(mut func(*scenario.Scenario)) *scenario.Scenario {
	s := &scenario.Scenario{
		Name: "hanging", Seed: 1, Duration: 10 * time.Second,
		Network: scenario.Network{Latency: time.Millisecond},
		Redis:   scenario.Redis{Nodes: 1, ReplicationLag: 10 * time.Millisecond, Persistence: "none", Clock: "wall"},
		Lock: scenario.Lock{Key: "lock", Strategy: model.StrategyLuaRelease, TTL: 5 * time.Second, Timeout: time.Second,
			Fencing: "none", Redlock: scenario.Redlock{DriftFactor: 0.01, RequestTimeout: 50 * time.Millisecond}},
		Clients: []scenario.Client{
			{Name: "A", Holds: 1, Work: 3 * time.Second},
			{Name: "B", Start: time.Millisecond, Holds: 1, Work: time.Second},
		},
	}
	mut(s)
	return s
}

// hangingConfigs are configurations that would run for ever (or for
// billions of events): virtual time stands still or crawls by nanoseconds.
var hangingConfigs = map[string]func(*scenario.Scenario){
	"watchdog every 1ns, latency 0": func(s *scenario.Scenario) {
		s.Network.Latency = 0
		s.Lock.Watchdog = &scenario.Watchdog{Every: time.Nanosecond}
	},
	"retry 1e9 attempts, delay 0, latency 0": func(s *scenario.Scenario) {
		s.Network.Latency = 0
		s.Lock.Retry = &scenario.Retry{Attempts: 1_000_000_000, Backoff: 1}
	},
	"redlock retry 1e9 attempts, delay 0, latency 0": func(s *scenario.Scenario) {
		s.Network.Latency = 0
		s.Lock.Strategy = model.StrategyRedlock
		s.Redis.Nodes = 3
		s.Lock.Retry = &scenario.Retry{Attempts: 1_000_000_000, Backoff: 1}
	},
	"fair lock, retry 1e9 attempts, delay 0, latency 0": func(s *scenario.Scenario) {
		s.Network.Latency = 0
		s.Lock.Fair = true
		s.Lock.Retry = &scenario.Retry{Attempts: 1_000_000_000, Backoff: 1}
	},
	"reentrant, 1e9 nested re-entries, latency 0": func(s *scenario.Scenario) {
		s.Network.Latency = 0
		s.Lock.Reentrant = true
		s.Clients = []scenario.Client{{Name: "A", Holds: 1, Nested: 1_000_000_000}}
	},
	"1e9 holds, no work, no think, latency 0": func(s *scenario.Scenario) {
		s.Network.Latency = 0
		s.Clients = []scenario.Client{{Name: "A", Holds: 1_000_000_000}}
	},
	"retry 1e9 attempts, delay 0, during a pause of the holder": func(s *scenario.Scenario) {
		s.Network.Latency = 0
		s.Lock.Retry = &scenario.Retry{Attempts: 1_000_000_000, Backoff: 1}
		s.Faults = []faults.Fault{{At: 100 * time.Millisecond, Kind: faults.Pause, Target: "A", For: 5 * time.Second}}
	},
	"retry 1e9 attempts against an isolated node, latency 0, timeout 1ns": func(s *scenario.Scenario) {
		s.Network.Latency = 0
		s.Lock.Timeout = time.Nanosecond
		s.Lock.Retry = &scenario.Retry{Attempts: 1_000_000_000, Backoff: 1}
		s.Faults = []faults.Fault{{At: 0, Kind: faults.Isolate, Target: "redis-1", For: 10 * time.Second}}
	},
}

// TestHangingConfigsEndOnTheBudget runs each hanging configuration with a
// small budget, through every way a caller drives a run (Run, Step,
// RunUntil, Rewind): each ends after exactly the budget, and the report,
// its verdict, its text and the trace all say why.
func TestHangingConfigsEndOnTheBudget(t *testing.T) {
	drivers := map[string]func(r *Runner) *Runner{
		"Run": func(r *Runner) *Runner { r.Run(); return r },
		"Step": func(r *Runner) *Runner {
			for r.Step() {
			}
			return r
		},
		"RunUntil": func(r *Runner) *Runner { r.RunUntil(r.S.Duration); r.Step(); return r },
		"Rewind": func(r *Runner) *Runner {
			nr, err := r.Rewind(1 << 40)
			if err != nil {
				panic(err)
			}
			return nr
		},
	}
	for name, mut := range hangingConfigs {
		for dname, drive := range drivers {
			t.Run(name+"/"+dname, func(t *testing.T) {
				r, err := New(hangingScenario(mut), scenario.Options{EventBudget: testBudget}, true)
				if err != nil {
					t.Fatal(err)
				}
				r = drive(r)
				defer r.Close()
				checkExhausted(t, r)
			})
		}
	}
}

func checkExhausted(t *testing.T, r *Runner) {
	t.Helper()
	rep := r.Report()
	if !r.Over() || !rep.BudgetExhausted || !r.BudgetExhausted() || rep.Cancelled {
		t.Fatalf("over %t, budget_exhausted %t, cancelled %t: want a run ended by its budget", r.Over(), rep.BudgetExhausted, rep.Cancelled)
	}
	if rep.KernelSteps != testBudget || r.World().K.Steps() != testBudget {
		t.Errorf("ran %d kernel events (kernel: %d), want exactly the budget %d", rep.KernelSteps, r.World().K.Steps(), testBudget)
	}
	if rep.OK {
		t.Error("a run cut short by its budget is reported OK")
	}
	// Spinning must not pile up work either: what is queued stays a few
	// events per process, not a share of the budget.
	if n := r.World().K.Pending(); n > 64 {
		t.Errorf("%d events queued after %d: a queue grows with the run", n, testBudget)
	}
	if v := rep.Verdict(); !strings.HasPrefix(v, "BUDGET EXHAUSTED (") {
		t.Errorf("verdict %q does not say the budget was exhausted", v)
	}
	at := "t=" + sim.FormatTime(r.Now())
	var text bytes.Buffer
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "event budget exhausted at "+at) {
		t.Errorf("report text does not say \"event budget exhausted at %s\":\n%s", at, text.String())
	}
	ev := r.Events()
	var budget *sim.Event
	for i := range ev {
		if ev[i].Kind == "budget" {
			budget = &ev[i]
		}
	}
	if budget == nil || !strings.HasPrefix(budget.Msg, "event budget exhausted at "+at) {
		t.Fatalf("trace has no line \"event budget exhausted at %s\" (budget line %v)", at, budget)
	}
	if last := ev[len(ev)-1]; last.Kind != "end" {
		t.Errorf("trace ends with %s %q, want the end line", last.Kind, last.Msg)
	}
}

// TestBudgetNotSpentByAFinishedRun: a run that needs exactly its budget is
// over normally, not exhausted (the budget counts refused events, not
// spent ones), and the default budget leaves every bundled scenario whole.
func TestBudgetNotSpentByAFinishedRun(t *testing.T) {
	s := scenariotest.Scenario(t, "gc-pause-lua-release")
	full := newRunnerT(t, s, scenario.Options{})
	rep := full.Run()
	full.Close()
	if rep.BudgetExhausted {
		t.Fatal("the default budget cut a bundled scenario short")
	}
	exact := newRunnerT(t, s, scenario.Options{EventBudget: rep.KernelSteps})
	defer exact.Close()
	if got := exact.Run(); got.BudgetExhausted || got.TraceHash != rep.TraceHash {
		t.Errorf("with a budget of exactly its %d events: exhausted %t, trace %s want %s",
			rep.KernelSteps, got.BudgetExhausted, got.TraceHash, rep.TraceHash)
	}
	short := newRunnerT(t, s, scenario.Options{EventBudget: rep.KernelSteps - 1})
	defer short.Close()
	if got := short.Run(); !got.BudgetExhausted || got.KernelSteps != rep.KernelSteps-1 {
		t.Errorf("with one event less: exhausted %t after %d events", got.BudgetExhausted, got.KernelSteps)
	}
}

// newRunnerT is New for tests, keeping the events.
func newRunnerT(t *testing.T, s *scenario.Scenario, o scenario.Options) *Runner {
	t.Helper()
	r, err := New(s, o, true)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestHugeWaitsNeitherHangNorWrap: waits far past any run's end (work of
// math.MaxInt64, 1e17ns on a clock at 0.001x) neither hang the event that
// computes them (the drifted one used to walk for ever) nor wrap around
// into the past and end at once: the client is still working when the
// run ends.
func TestHugeWaitsNeitherHangNorWrap(t *testing.T) {
	for _, tc := range []struct {
		name  string
		work  time.Duration
		drift float64
	}{
		{"work math.MaxInt64", math.MaxInt64, 0},
		{"work 1e17ns at 0.001x", 1e17, 0.001},
		{"work math.MaxInt64 at 10x", math.MaxInt64, 10},
	} {
		s := hangingScenario(func(s *scenario.Scenario) {
			s.Clients = []scenario.Client{{Name: "A", Start: time.Second, Holds: 1, Work: tc.work}}
			if tc.drift != 0 {
				s.Faults = []faults.Fault{{At: 0, Kind: faults.ClockDrift, Target: "A", Rate: tc.drift}}
			}
		})
		r := newRunnerT(t, s, scenario.Options{EventBudget: testBudget})
		rep := r.Run()
		r.Close()
		if rep.BudgetExhausted || rep.Acquired != 1 || r.World().Client("A").State() != model.StateWorking {
			t.Errorf("%s: exhausted %t, acquired %d, A %s at the end: want A still working", tc.name,
				rep.BudgetExhausted, rep.Acquired, r.World().Client("A").State())
		}
	}
}

// TestExtremeFaultsStayInBounds runs every fault kind with its durations
// and offsets at math.MaxInt64 (what the loader refuses, built in Go): no
// panic, no hang, the run ends within its duration and budget, and it is
// deterministic.
func TestExtremeFaultsStayInBounds(t *testing.T) {
	const big = time.Duration(math.MaxInt64)
	fs := map[string]faults.Fault{
		"pause":          {At: time.Second, Kind: faults.Pause, Target: "A", For: big},
		"hang":           {At: time.Second, Kind: faults.Hang, Target: "A", For: big},
		"slow node":      {At: time.Second, Kind: faults.Slow, Target: "redis-1", For: big, Latency: big, Loss: 1},
		"slow client":    {At: time.Second, Kind: faults.Slow, Target: "A", For: time.Second, Latency: big},
		"isolate":        {At: time.Second, Kind: faults.Isolate, Target: "redis-1", For: big},
		"partition":      {At: time.Second, Kind: faults.Partition, Groups: [][]string{{"A"}, {"redis-1"}}, For: big},
		"crash":          {At: time.Second, Kind: faults.Crash, Target: "redis-1", RestartAfter: big},
		"jump node +":    {At: time.Second, Kind: faults.ClockJump, Target: "redis-1", By: big},
		"jump node -":    {At: time.Second, Kind: faults.ClockJump, Target: "redis-1", By: -big},
		"jump client +":  {At: time.Second, Kind: faults.ClockJump, Target: "A", By: big},
		"jump client -":  {At: time.Second, Kind: faults.ClockJump, Target: "A", By: -big},
		"drift node":     {At: time.Second, Kind: faults.ClockDrift, Target: "redis-1", Rate: 0.001},
		"drift client":   {At: time.Second, Kind: faults.ClockDrift, Target: "A", Rate: 1000},
		"at the far end": {At: big, Kind: faults.Pause, Target: "A", For: big},
	}
	for _, name := range slices.Sorted(maps.Keys(fs)) {
		for _, watchdog := range []bool{false, true} {
			s := hangingScenario(func(s *scenario.Scenario) {
				s.Faults = []faults.Fault{fs[name]}
				s.Redis.Replicas = 1
				s.Lock.Retry = &scenario.Retry{Attempts: 5, Delay: 100 * time.Millisecond, Backoff: 1}
				if watchdog {
					s.Lock.Watchdog = &scenario.Watchdog{Every: time.Second}
				}
			})
			var hash string
			for range 2 {
				r := newRunnerT(t, s, scenario.Options{EventBudget: testBudget})
				rep := r.Run()
				r.Close()
				if rep.BudgetExhausted || !r.Over() || r.Now() > s.Duration {
					t.Errorf("%s (watchdog %t): exhausted %t, over %t at %s", name, watchdog, rep.BudgetExhausted, r.Over(), r.Now())
				}
				if hash != "" && rep.TraceHash != hash {
					t.Errorf("%s (watchdog %t): two runs, two traces", name, watchdog)
				}
				hash = rep.TraceHash
			}
		}
	}
}
