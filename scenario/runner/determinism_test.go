package runner

import (
	"fmt"
	"hash/fnv"
	"runtime"
	"sync"
	"testing"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
	"github.com/lockstep-sim/lockstep/sim"
)

// traceOf replays s and returns a hash over its full trace, every event's
// time, process, kind and message, plus the final report's trace hash.
func traceOf(t *testing.T, s *scenario.Scenario, o scenario.Options) (uint64, string) {
	t.Helper()
	r, err := New(s, o, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := fnv.New64a()
	r.OnEvent(func(e sim.Event) { fmt.Fprintf(h, "%d %s %s %s\n", e.At, e.Proc, e.Kind, e.Msg) })
	rep := r.Run()
	return h.Sum64(), rep.TraceHash
}

// TestDeterminismEveryBundledScenario is the simulator's first law: the
// same file and seed give a byte-identical trace, also when runs of other
// scenarios go on in parallel goroutines and GOMAXPROCS differs.
func TestDeterminismEveryBundledScenario(t *testing.T) {
	f := scenariotest.File(t)
	if len(f.Scenarios) == 0 {
		t.Fatal("no bundled scenarios")
	}
	first := make([]uint64, len(f.Scenarios))
	for i, s := range f.Scenarios {
		first[i], _ = traceOf(t, s, scenario.Options{})
	}
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	runtime.GOMAXPROCS(2)
	var wg sync.WaitGroup
	for i, s := range f.Scenarios {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, _ := traceOf(t, s, scenario.Options{})
			if got != first[i] {
				t.Errorf("%s: trace differs between two runs with the same seed", s.Name)
			}
		}()
	}
	wg.Wait()
}

// TestSeedChangesRandomRuns checks that the seed reaches the run: a scenario
// with jitter must give a different trace under another seed, or the seed
// is being ignored.
func TestSeedChangesRandomRuns(t *testing.T) {
	f, err := scenario.Load("jitter.yaml", []byte(`version: 1
scenarios:
  - name: jitter
    duration: 60s
    network: {latency: 1ms, jitter: 2ms}
    lock:
      key: k
      strategy: lua-release
      ttl: 5s
      retry: {attempts: 100, delay: 10ms, jitter: 0.5}
    clients:
      - {name: A, holds: 5, work: 20ms}
      - {name: B, holds: 5, work: 20ms}
      - {name: C, holds: 5, work: 20ms}
`))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Scenarios[0]
	a, _ := traceOf(t, s, scenario.Options{})
	seed := s.Seed + 1
	b, _ := traceOf(t, s, scenario.Options{Seed: &seed})
	if a == b {
		t.Fatal("changing the seed did not change a run with retry jitter")
	}
}

// TestRewindReplaysExactly: Rewind(k) gives the same state as stepping to k.
func TestRewindReplaysExactly(t *testing.T) {
	f := scenariotest.File(t)
	s, err := f.Find("gc-pause-wrong-delete")
	if err != nil {
		t.Skip("scenario missing")
	}
	r, err := New(s, scenario.Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30 && r.Step(); i++ {
	}
	k := r.EventCount()
	want := fmt.Sprint(r.Events())
	nr, err := r.Rewind(k)
	if err != nil {
		t.Fatal(err)
	}
	defer nr.Close()
	if got := fmt.Sprint(nr.Events()); got != want || nr.Now() != r.Now() {
		t.Fatalf("rewind to %d differs:\n got %s\nwant %s", k, got, want)
	}
	// Stepping back one event and forward again lands on the same event.
	back, err := nr.Rewind(k - 1)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	back.Step()
	if got := fmt.Sprint(back.Events()); got != want {
		t.Fatalf("back then forward differs")
	}
}

// A long run's memory does not grow with its length: the trace is streamed
// (a runner that does not keep events holds none) and the resource keeps
// only its recent writes.
func TestLongRunHoldsNoHistory(t *testing.T) {
	s, err := scenariotest.File(t).Find("counter-30x200")
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(s, scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep := r.Run()
	if rep.Acquired != 6000 || len(r.Events()) != 0 {
		t.Fatalf("acquired %d, kept %d events", rep.Acquired, len(r.Events()))
	}
	if n := len(r.World().Res.Writes); n < model.KeptWrites || n >= 2*model.KeptWrites {
		t.Fatalf("resource remembers %d writes after 6000 holds", n)
	}
}
