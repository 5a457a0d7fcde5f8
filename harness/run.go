package harness

import (
	"context"
	"flag"
	"fmt"
	mrand "math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/cryptotest"
	"testing/synctest"
	"time"

	"github.com/lockstep-sim/lockstep/internal/safefile"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// Run runs the scenario cfg names with the user's lock: factory makes each
// client's Locker, inside a synctest bubble, and the scenario's world,
// workload and faults act on it on virtual time. It runs the world twice
// and fails loudly if the two traces differ (the library, or the Locker,
// does something the harness cannot make deterministic). It checks
// cfg.Expect (one t.Errorf per unmet expectation) and returns the report.
// When the test fails, the trace is written to t.ArtifactDir() and the
// command that opens it in lockstep's TUI is logged.
//
// Run must be called from a test that is not parallel and not inside a
// synctest bubble: it seeds the process's crypto/rand and math/rand and
// sets GODEBUG for the test, and it makes bubbles of its own.
func Run(t *testing.T, cfg Config, factory Factory) Report {
	t.Helper()
	rep, div := runChecked(t, cfg, factory)
	if div != "" {
		t.Fatalf("%s", div)
	}
	expect, err := scenario.ParseExpect("harness.Config.Expect", cfg.Expect)
	if err != nil {
		t.Fatalf("lockstep harness: %v", err)
	}
	for _, e := range expect {
		got, _ := rep.Metrics.Get(e.Metric)
		if !e.Check(got) {
			t.Errorf("lockstep harness: %s: %s is %s, expected %s", rep.Scenario, e.Metric, formatGot(e, got), e.Raw)
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			keepTrace(t, &rep)
		}
	})
	return rep
}

func formatGot(e scenario.Expectation, got int64) string {
	switch {
	case e.Bool:
		return fmt.Sprint(got == 1)
	case e.Metric == "max_wait":
		return (time.Duration(got) * time.Millisecond).String()
	}
	return fmt.Sprint(got)
}

// keepTrace writes the failed run's trace where `go test` keeps artifacts.
func keepTrace(t *testing.T, rep *Report) {
	dir := t.ArtifactDir()
	path, err := safefile.WriteNew(filepath.Join(dir, rep.Scenario+".jsonl"), rep.TraceJSONL())
	if err != nil {
		t.Logf("lockstep harness: the trace could not be kept: %v", err)
		return
	}
	note := ""
	if f := flag.Lookup("test.artifacts"); f == nil || f.Value.String() != "true" {
		note = " (go test removes it after the test: run with -artifacts to keep it)"
	}
	t.Logf("lockstep harness: trace of %s (seed %d) written%s; open it with:\n\tlockstep tui --trace %s", rep.Scenario, rep.Seed, note, path)
}

// runChecked prepares the process (refusals, seeding) and runs the world
// twice; div is non-empty, and says why, when the two traces differ.
func runChecked(t *testing.T, cfg Config, factory Factory) (rep Report, div string) {
	t.Helper()
	refuseParallel(t)
	s, err := load(cfg)
	if err != nil {
		t.Fatalf("lockstep harness: %v", err)
	}
	t.Logf("lockstep harness: %s: the Locker replaces the scenario's lock design (ignored: %s)",
		s.Name, strings.Join(ignoredLock(s), ", "))
	s = prepare(s, cfg.Seed)
	seedMathRand(t)
	first := runOnce(t, s, cfg.Quorum, factory, true)
	second := runOnce(t, s, cfg.Quorum, factory, false)
	if first.TraceHash != second.TraceHash {
		return first, fmt.Sprintf("lockstep harness: NONDETERMINISTIC: scenario %s, seed %d ran twice and gave two traces (%s, then %s); "+
			"the verdict would not be reproducible, so none is given. Something the Locker does depends on the Go scheduler "+
			"or on an unseeded source (math/rand/v2's top-level functions, time.Now in wall-clock arithmetic, map order)%s",
			s.Name, s.Seed, first.TraceHash, second.TraceHash, divergence(t, &first, &second))
	}
	return first, ""
}

// divergence keeps both traces of a nondeterministic run and names the
// first line where they part.
func divergence(t *testing.T, a, b *Report) string {
	la, lb := strings.Split(string(a.TraceJSONL()), "\n"), strings.Split(string(b.TraceJSONL()), "\n")
	msg := ""
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			msg = fmt.Sprintf("; first difference at line %d:\n\t%s\n\t%s", i+1, la[i], lb[i])
			break
		}
	}
	dir := t.ArtifactDir()
	for i, r := range []*Report{a, b} {
		if p, err := safefile.WriteNew(filepath.Join(dir, fmt.Sprintf("%s-run%d.jsonl", r.Scenario, i+1)), r.TraceJSONL()); err == nil {
			msg += "\n\tkept: " + p
		}
	}
	return msg
}

// refuseParallel fails the test, saying why, when Run cannot work in it:
// parallel (t.Setenv refuses) or inside a synctest bubble.
func refuseParallel(t *testing.T) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("lockstep harness: Run cannot be used in a parallel test: it seeds the process's crypto/rand and math/rand and sets GODEBUG (%v)", r)
		}
	}()
	t.Setenv("GODEBUG", godebug())
}

// godebug is the process's GODEBUG with randseednop=0, which lets
// math/rand.Seed seed the top-level functions again (a library cannot use
// a //go:debug line).
func godebug() string {
	g := os.Getenv("GODEBUG")
	if g == "" {
		return "randseednop=0"
	}
	return g + ",randseednop=0"
}

// seedMathRand checks that math/rand's top-level functions can be seeded:
// if GODEBUG did not take, every run would draw differently.
func seedMathRand(t *testing.T) {
	t.Helper()
	const probe = 0x10c857e9
	//lint:ignore SA1019 seeding the global source is the point: the libraries use it
	mrand.Seed(probe)
	want := mrand.New(mrand.NewSource(probe)).Int63()
	if got := mrand.Int63(); got != want {
		t.Fatalf("lockstep harness: math/rand.Seed had no effect although GODEBUG=%q: the libraries' math/rand draws (redsync's retry delays, go-redis's backoff) cannot be made reproducible", os.Getenv("GODEBUG"))
	}
}

// runOnce runs the world once in a bubble of its own.
// The library's errors are logged from the first run only (verbose).
func runOnce(t *testing.T, s *scenario.Scenario, quorum int, factory Factory, verbose bool) (rep Report) {
	t.Helper()
	cryptotest.SetGlobalRandom(t, s.Seed)
	//lint:ignore SA1019 seeding the global source is the point: the libraries use it
	mrand.Seed(int64(s.Seed))
	defer func() {
		if r := recover(); r != nil {
			if msg, ok := r.(string); ok && strings.Contains(msg, "within a synctest bubble") {
				t.Fatalf("lockstep harness: Run cannot be called inside a synctest bubble: it makes its own (synctest bubbles do not nest)")
			}
			panic(r)
		}
	}()
	synctest.Test(t, func(t *testing.T) {
		d, err := newDriver(t, s, quorum, factory)
		if d != nil {
			d.verbose = verbose
		}
		if err != nil {
			t.Fatalf("lockstep harness: %v", err)
		}
		rep = d.run()
	})
	return rep
}

// newDriver builds the world; the clients' goroutines start in run.
func newDriver(t *testing.T, s *scenario.Scenario, quorum int, factory Factory) (*driver, error) {
	d := &driver{t: t, quorum: quorum, factory: factory, epoch: time.Now(), byName: map[string]*Client{}, held: map[string][]func(){},
		wake: make(chan struct{}, 1)}
	r, err := runner.New(s, scenario.Options{Custom: &strategy{d}}, true)
	if err != nil {
		return nil, err
	}
	d.r, d.w, d.k = r, r.World(), r.World().K
	d.rec = recordTrace(r)
	for _, sh := range d.w.Shards {
		d.masters = append(d.masters, sh.Master.Name())
	}
	for _, mc := range d.w.Clients {
		ctx, cancel := context.WithCancel(context.Background())
		c := &Client{d: d, name: mc.Name, ctx: ctx, cancel: cancel, reqs: make(chan request, 1), dials: map[string]int{}}
		d.clients = append(d.clients, c)
		d.byName[c.name] = c
	}
	return d, nil
}
