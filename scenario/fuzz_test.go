package scenario_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"

	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/sim"
)

// errorForm is the shape every load error must have: FILE:LINE:COL: message.
var errorForm = regexp.MustCompile(`^[^:]+:\d+:\d+: `)

// FuzzLoad checks that Load never panics, that every error it returns is
// one short, escaped line of the FILE:LINE:COL form, and that whatever it
// accepts really is valid, within every limit, and simulates within its
// event budget (checkRun).
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("../testdata/*/*.yaml")
	for _, path := range files {
		// Each run of these walks a million aliased nodes (~60ms); as a
		// seed it stalls the fuzzer's minimizer. TestBadFiles and
		// TestHostileCorpus cover them.
		if b := filepath.Base(path); b == "billion-laughs.yaml" || b == "alias-bomb-groups.yaml" {
			continue
		}
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		scenario.Base,
		scenario.Base + "    faults: [{at: 1s, partition: {groups: [[A], [redis-1]], for: 1s}}]\n",
		scenario.Base + "    expect: {safe: true, max_wait: \"<= 2s\", violations: \">= 1\"}\n",
		scenario.Head + "    lock: &l {key: k, strategy: redlock, ttl: 5s, <<: *l}\n" + scenario.ClientsOK,
		scenario.Head + "    lock: {<<: [{key: k}, {strategy: redlock}], ttl: 1s}\n" + scenario.ClientsOK,
		// Nested pauses: the inner one's end must not wake A (issue 11 item 14).
		scenario.Head + scenario.LockOK + "    clients: [{name: A, work: 3s}]\n    faults: [{at: 1s, pause: {target: A, for: 8s}}, {at: 2s, pause: {target: A, for: 1s}}]\n",
		"version: 1\nscenarios: [\n",
		"version: 1\nscenarios:\n\t- name: s\n",
		"a: &a [x, *a]\n",
		"version: !!int x\n",
		"? [a]\n: 1\n",
		"--- 1\n--- 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := scenario.Load("fuzz.yaml", data)
		if err != nil {
			var le *scenario.LoadError
			if !errors.As(err, &le) || le.Pos.Line < 1 || le.Pos.Col < 1 {
				t.Fatalf("error is not a positioned *LoadError: %#v", err)
			}
			if !errorForm.MatchString(err.Error()) {
				t.Fatalf("error %q is not FILE:LINE:COL: message", err)
			}
			scenario.CheckOneLine(t, "fuzz.yaml", err)
			return
		}
		if file == nil || len(file.Scenarios) == 0 || len(file.Scenarios) > scenario.MaxScenarios {
			t.Fatalf("accepted a file with no or too many scenarios: %+v", file)
		}
		for _, s := range file.Scenarios {
			if err := s.Validate(); err != nil {
				t.Fatalf("accepted an invalid scenario: %v", err)
			}
			checkInvariants(t, s)
			checkRun(t, s, fuzzBudget)
		}
	})
}

// fuzzBudget is the event budget of each run the fuzzer makes: small, so
// that an input costs milliseconds, and still enough for most of a run.
const fuzzBudget = 20_000

// checkRun simulates s within budget kernel events and checks what a
// loaded scenario promises: the run ends within its budget, never panics,
// time never runs backwards, below zero or past the duration (no overflow),
// and a paused client does nothing while any pause covers it.
func checkRun(t *testing.T, s *scenario.Scenario, budget int64) {
	t.Helper()
	r, err := runner.New(s, scenario.Options{EventBudget: budget}, false)
	if err != nil {
		t.Fatalf("a loaded scenario does not build: %v", err)
	}
	defer r.Close()
	var last time.Duration
	r.OnEvent(func(e sim.Event) {
		if e.At < last || e.At < 0 || e.At > s.Duration {
			t.Fatalf("event at %v after one at %v (duration %v): %+v", e.At, last, s.Duration, e)
		}
		last = e.At
		// A clock fault's effect on the client ("clock") is the fault
		// acting, not the client: a paused client's clock runs on.
		if e.Kind != "fault" && e.Kind != "fault-end" && e.Kind != "clock" && pausedAt(s, e.Proc, e.At) {
			t.Fatalf("%s acts while paused: %+v", e.Proc, e)
		}
	})
	rep := r.Run()
	if rep.KernelSteps > budget || rep.SimTimeMS < 0 || time.Duration(rep.SimTimeMS)*time.Millisecond > s.Duration {
		t.Fatalf("run out of bounds: %d kernel events (budget %d), sim time %dms (duration %v)", rep.KernelSteps, budget, rep.SimTimeMS, s.Duration)
	}
	if holds, renewals := scenario.PlannedEvents(s, ""); holds+renewals > scenario.DefaultEventBudget {
		t.Fatalf("accepted %s planning %.0f events, more than the default budget", s.Name, holds+renewals)
	}
}

// pausedAt reports whether a pause fault of s covers proc strictly inside
// its span at time at (the instants it begins and ends belong to the fault).
func pausedAt(s *scenario.Scenario, proc string, at time.Duration) bool {
	for _, f := range s.Faults {
		if f.Kind == faults.Pause && f.Target == proc && at > f.At && at < f.At+f.For {
			return true
		}
	}
	return false
}

// checkInvariants restates a few rules independently of validate, so a bug
// there (a check skipped, a condition inverted) is caught too.
func checkInvariants(t *testing.T, s *scenario.Scenario) {
	t.Helper()
	switch {
	case s.Name == "" || s.Duration <= 0 || s.Duration > scenario.MaxDuration:
		t.Fatalf("bad name or duration: %q %v", s.Name, s.Duration)
	case s.Redis.Nodes < 1 || s.Redis.Nodes > scenario.MaxNodes || s.Redis.Replicas < 0 || s.Redis.Replicas > scenario.MaxReplicas:
		t.Fatalf("bad redis: %+v", s.Redis)
	case s.Lock.TTL <= 0 || s.Lock.Timeout <= 0 || !slices.Contains(scenario.Strategies, s.Lock.Strategy):
		t.Fatalf("bad lock: %+v", s.Lock)
	case len(s.Clients) < 1 || len(s.Clients) > scenario.MaxClients || len(s.Faults) > scenario.MaxFaults:
		t.Fatalf("bad counts: %d clients, %d faults", len(s.Clients), len(s.Faults))
	}
	inRange := func(d time.Duration) bool { return d >= 0 && d <= scenario.MaxDuration }
	l := s.Lock
	if l.TTL < scenario.MinTTL || l.TTL > scenario.MaxDuration || l.TTL%time.Millisecond != 0 || !inRange(s.Network.Latency) || !inRange(s.Network.Jitter) {
		t.Fatalf("bad ttl or network: %+v %+v", l, s.Network)
	}
	if w := l.Watchdog; w != nil && (w.Every <= 0 || w.Every > scenario.MaxDuration || w.Every+2*s.Network.Latency < scenario.MinCycle) {
		t.Fatalf("bad watchdog: %+v", w)
	}
	if r := l.Retry; r != nil && (r.Attempts < 1 || r.Attempts > scenario.MaxAttempts || !inRange(r.Delay) || !inRange(r.MaxDelay) ||
		scenario.LongestPause(r) > float64(scenario.MaxDuration) || (r.Attempts > 1 && r.Delay+2*s.Network.Latency < scenario.MinCycle)) {
		t.Fatalf("bad retry: %+v", r)
	}
	if scenario.CheckDesign(l.Strategy, l) != nil || termtext.HasControl(l.Key) || termtext.HasControl(s.Title) || termtext.EscapeKeepLines(s.Story) != s.Story {
		t.Fatalf("bad design or text: %+v %q %q", l, s.Title, s.Story)
	}
	for _, c := range s.Clients {
		if c.Holds < 1 || c.Holds > scenario.MaxHolds || !inRange(c.Work) || !inRange(c.Start) || !inRange(c.Think) || c.Pos.Line < 1 || termtext.HasControl(c.Name) {
			t.Fatalf("bad client: %+v", c)
		}
	}
	for i, f := range s.Faults {
		if f.At < 0 || f.At >= s.Duration || !slices.Contains(faults.Kinds, f.Kind) || s.FaultPos[i].Line < 1 ||
			!inRange(f.For) || !inRange(f.RestartAfter) || !inRange(f.Latency) || f.By < -scenario.MaxDuration || f.By > scenario.MaxDuration {
			t.Fatalf("bad fault: %+v", f)
		}
	}
	for _, x := range s.Expect {
		if !slices.Contains(scenario.MetricNames, x.Metric) || x.Value < 0 || x.Pos.Line < 1 {
			t.Fatalf("bad expectation: %+v", x)
		}
	}
}
