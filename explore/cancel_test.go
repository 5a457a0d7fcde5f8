package explore

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
)

// cancelAfter is a context that reports itself cancelled from its n+1th
// look on: a clock made of the runner's own checks (one every
// scenario.CancelCheckEvery kernel events), so the tests count events and
// never wait.
type cancelAfter struct {
	context.Context
	n, looks atomic.Int64
}

func newCancelAfter(n int64) *cancelAfter {
	c := &cancelAfter{Context: context.Background()}
	c.n.Store(n)
	return c
}

func (c *cancelAfter) Err() error {
	if c.looks.Add(1) > c.n.Load() {
		return context.Canceled
	}
	return nil
}

func (c *cancelAfter) Done() <-chan struct{} { return nil }

// TestCancelStopsARunWithinK: a cancel is seen inside a run within
// CancelCheckEvery kernel events of it, and the run says it was cancelled.
func TestCancelStopsARunWithinK(t *testing.T) {
	w := NewWorld(testScenario(t, "busy"), "lua-release")
	full, err := runOnce(t.Context(), w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if full.KernelSteps < 4*scenario.CancelCheckEvery {
		t.Fatalf("a run of %d kernel events is too short for this test", full.KernelSteps)
	}
	rep, err := runOnce(newCancelAfter(2), w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Cancelled || rep.OK {
		t.Fatalf("cancelled run: cancelled %t, ok %t", rep.Cancelled, rep.OK)
	}
	if max := int64(3 * scenario.CancelCheckEvery); rep.KernelSteps > max {
		t.Errorf("ran %d kernel events after a cancel seen at the third check (at most %d)", rep.KernelSteps, max)
	}
}

// TestCancelledRunsAreNotCounted: a search cancelled while a run is in
// flight counts exactly the runs that finished before it. The cancel comes
// from a context that turns cancelled at a chosen look; counting the looks
// each run takes (with one worker, runs go in index order, and the search
// looks once before each) says which run it strikes inside.
func TestCancelledRunsAreNotCounted(t *testing.T) {
	s := testScenario(t, "busy")
	w := NewWorld(s, s.Lock.Strategy)
	g := &Generator{W: w, Kinds: DefaultKinds, MaxFaults: DefaultMaxFaults, Seed: 1}
	var looks []int64 // looks of run i, run to its end
	for i := range 3 {
		c := newCancelAfter(1 << 62)
		if _, err := runOnce(c, w, g.Schedule(i)); err != nil {
			t.Fatal(err)
		}
		looks = append(looks, c.looks.Load())
	}
	if looks[2] < 4 {
		t.Fatalf("run 2 takes %d looks: too short to be cut in the middle", looks[2])
	}
	// Runs 0 and 1 finish; the cancel lands in the middle of run 2.
	n := 1 + looks[0] + 1 + looks[1] + 1 + looks[2]/2
	var progressed atomic.Int64
	res, err := Explore(newCancelAfter(n), Config{Scenario: s, Runs: 1000, Seed: 1, Workers: 1,
		Progress: func(done, total int) { progressed.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	sr := res.Strategies[0]
	if !res.Interrupted || sr.Runs != 2 || progressed.Load() != 2 {
		t.Fatalf("interrupted %t, %d runs counted, %d told to Progress; want 2 (run 2 was cut off)",
			res.Interrupted, sr.Runs, progressed.Load())
	}
}

// TestSearchMemoryDoesNotGrowWithRuns: a search asked for MaxRuns runs
// (the old code allocated an outcome per run up front: 64 GB) allocates
// about what its first runs need, and a tally is a fixed-size value.
func TestSearchMemoryDoesNotGrowWithRuns(t *testing.T) {
	var tl Tally
	if a := testing.AllocsPerRun(1000, func() { tl.Add(Outcome{Done: true, Violations: 1, Kinds: 3}) }); a != 0 {
		t.Errorf("Tally.Add allocates %.1f times per outcome", a)
	}
	s := testScenario(t, "small")
	measure := func(runs int) uint64 {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Explore(ctx, Config{Scenario: s, Runs: runs, Seed: 1, Workers: 1,
			Progress: func(done, total int) {
				if done >= 20 {
					cancel()
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, huge := measure(20), measure(MaxRuns)
	t.Logf("allocated %d bytes for 20 runs, %d for 20 runs of a %d-run search", small, huge, MaxRuns)
	if huge > 2*small+1<<20 {
		t.Errorf("a %d-run search allocated %d bytes for its first runs, 20 runs alone %d", MaxRuns, huge, small)
	}
}
