package explore

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// DefaultRuns is how many schedules are explored per strategy by default.
const DefaultRuns = 1000

// Bounds on a search, so a typo cannot ask for the impossible. A search
// keeps O(1) memory per strategy whatever its run count (outcomes are
// tallied as they come), so MaxRuns bounds time only: a billion runs at
// ~2000/s is about six days.
const (
	MaxRuns      = 1_000_000_000
	MaxMaxFaults = 100 // a schedule of 100 faults is already noise; shrinking starts from it
	MaxWorkers   = 256
)

// Config is one search. Zero fields take the defaults documented on them.
type Config struct {
	Scenario     *scenario.Scenario // the world: nodes, replicas, clients, lock, duration
	Strategies   []string           // default: the scenario's own
	Kinds        []faults.Kind      // default DefaultKinds
	Runs         int                // schedules per strategy; default DefaultRuns
	Seed         uint64             // every schedule derives from it and the run index
	Workers      int                // parallel runs; default GOMAXPROCS
	MaxFaults    int                // faults per schedule, 1..MaxFaults; default DefaultMaxFaults
	ShrinkBudget int                // runs per shrink; default DefaultShrinkBudget
	Budget       int64              // kernel events per run; default scenario.DefaultEventBudget
	OutDir       string             // write counterexamples here; "" writes none
	File         string             // the scenario file as the user named it ("" = bundled), for stories
	// Progress, when set, is told after every run how many of total runs
	// are done. It is called from the workers' goroutines.
	Progress func(done, total int)
}

// Result is the outcome of a search.
type Result struct {
	File        string            `json:"file,omitempty"` // the scenario file; "" = the bundled one
	Scenario    string            `json:"scenario"`
	Seed        uint64            `json:"seed"`
	Kinds       []string          `json:"faults"`
	MaxFaults   int               `json:"max_faults"`
	Runs        int               `json:"runs_per_strategy"` // as asked; see each strategy's runs for how many ran
	Budget      int64             `json:"event_budget"`      // kernel events per run
	Interrupted bool              `json:"interrupted"`       // stopped early; rates cover the runs that finished
	Strategies  []*StrategyResult `json:"strategies"`
	Elapsed     time.Duration     `json:"-"` // wall time; not part of the deterministic result
}

// StrategyResult is one strategy's share of a search.
type StrategyResult struct {
	Strategy string `json:"strategy"`
	Nodes    int    `json:"nodes"` // masters in its world
	// Dropped are the modifiers of the scenario's design this strategy
	// cannot run, so its runs go without them (as a compare column does).
	Dropped []scenario.Dropped `json:"dropped,omitempty"`
	Stats
	// Counterexample is the shrunk first violating schedule; nil when no
	// run violated safety.
	Counterexample *Counterexample `json:"counterexample,omitempty"`

	world *World
	tally tally
}

// tally is one strategy's outcomes as they arrive from the workers: the
// statistics and the one violating run a shrink will start from. Its size
// does not depend on the number of runs, and neither does its content on
// the order runs finish in.
type tally struct {
	mu         sync.Mutex
	t          Tally
	best       int // the violating run to shrink: fewest faults, then lowest index; -1 none
	bestFaults int
	bestReport *runner.Report // best's run, kept so an interrupt need not run it again
}

func (t *tally) add(run int, o Outcome, rep *runner.Report) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.t.Add(o)
	// A run cut short by the event budget is not a counterexample: its
	// replay would be cut short too, and judged incomplete.
	if o.Violations == 0 || o.BudgetExhausted {
		return
	}
	if t.best < 0 || o.Faults < t.bestFaults || (o.Faults == t.bestFaults && run < t.best) {
		t.best, t.bestFaults, t.bestReport = run, o.Faults, rep
	}
}

// Counterexample is a violating schedule, shrunk.
type Counterexample struct {
	Run            int      `json:"run"`             // the run it was found in (0-based)
	OriginalFaults []string `json:"original_faults"` // that run's schedule
	Faults         []string `json:"faults"`          // the shrunk schedule
	Shrunk         bool     `json:"shrunk"`          // false: the search was interrupted first
	Minimal        bool     `json:"minimal"`         // no single shrink step keeps the violation
	ShrinkRuns     int      `json:"shrink_runs"`
	Violations     int64    `json:"violations"`
	LostUpdates    int64    `json:"lost_updates"`
	FirstViolation string   `json:"first_violation"`
	TraceHash      string   `json:"trace_hash"`
	File           string   `json:"file,omitempty"` // where it was written

	schedule []faults.Fault
	original []faults.Fault
	report   *runner.Report
}

// Schedule is the shrunk schedule itself.
func (cx *Counterexample) Schedule() []faults.Fault { return cx.schedule }

// Report is the shrunk schedule's run.
func (cx *Counterexample) Report() *runner.Report { return cx.report }

// withDefaults fills in c's zero fields and checks it.
func (c Config) withDefaults() (Config, error) {
	if c.Scenario == nil {
		return c, errors.New("no scenario")
	}
	if len(c.Strategies) == 0 {
		c.Strategies = []string{c.Scenario.Lock.Strategy}
	}
	if err := runner.CheckStrategies(c.Strategies); err != nil {
		return c, err
	}
	if len(c.Kinds) == 0 {
		c.Kinds = DefaultKinds
	}
	if c.Runs == 0 {
		c.Runs = DefaultRuns
	}
	if c.Runs < 0 || c.Runs > MaxRuns {
		return c, fmt.Errorf("runs must be from 1 to %d (got %d)", MaxRuns, c.Runs)
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Workers > MaxWorkers {
		return c, fmt.Errorf("workers must be from 1 to %d (got %d)", MaxWorkers, c.Workers)
	}
	if c.MaxFaults == 0 {
		c.MaxFaults = DefaultMaxFaults
	}
	if c.MaxFaults < 0 || c.MaxFaults > MaxMaxFaults {
		return c, fmt.Errorf("max faults must be from 1 to %d (got %d)", MaxMaxFaults, c.MaxFaults)
	}
	if c.ShrinkBudget == 0 {
		c.ShrinkBudget = DefaultShrinkBudget
	}
	if c.Budget == 0 {
		c.Budget = scenario.DefaultEventBudget
	}
	if c.Budget < 0 || c.Budget > scenario.MaxEventBudget {
		return c, fmt.Errorf("event budget must be from 1 to %d (got %d)", int64(scenario.MaxEventBudget), c.Budget)
	}
	return c, nil
}

// Explore runs the search: Runs schedules for each strategy, spread over
// Workers goroutines, then a shrink of each strategy's violating run with
// the fewest faults (the lowest run index among equals), written to OutDir
// when set. Cancelling ctx stops the search within a few thousand kernel
// events, inside a run: the result covers the runs that finished
// (Interrupted is set; a run cut off is discarded, not counted), and a
// violation found so far is reported and written unshrunk.
//
// An error about the configuration or an unusable OutDir comes before any
// run. An error writing a counterexample comes with the result: the search
// is never thrown away.
func Explore(ctx context.Context, cfg Config) (*Result, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	res := &Result{File: cfg.File, Scenario: cfg.Scenario.Name, Seed: cfg.Seed, Runs: cfg.Runs,
		MaxFaults: cfg.MaxFaults, Budget: cfg.Budget}
	for _, k := range cfg.Kinds {
		res.Kinds = append(res.Kinds, string(k))
	}
	gens := make([]*Generator, len(cfg.Strategies))
	for i, st := range cfg.Strategies {
		w := NewWorld(cfg.Scenario, st)
		w.Budget = cfg.Budget
		gens[i] = &Generator{W: w, Kinds: cfg.Kinds, MaxFaults: cfg.MaxFaults, Seed: cfg.Seed}
		if err := gens[i].Check(); err != nil {
			return nil, err
		}
		if err := w.check(); err != nil { // a world that cannot be built fails here, once
			return nil, err
		}
		res.Strategies = append(res.Strategies, &StrategyResult{Strategy: st, Nodes: w.Base.Redis.Nodes,
			Dropped: w.Dropped, world: w, tally: tally{best: -1}})
	}
	if cfg.OutDir != "" {
		if err := checkOutDir(cfg.OutDir); err != nil {
			return nil, err
		}
	}

	start := time.Now()
	if err := search(ctx, cfg, gens, res.Strategies); err != nil {
		return nil, err
	}
	res.Interrupted = ctx.Err() != nil
	for _, sr := range res.Strategies {
		sr.Stats = sr.tally.t.Stats()
	}
	err = counterexamples(ctx, cfg, gens, res)
	res.Elapsed = time.Since(start)
	return res, err
}

// search runs every (run, strategy) job. Jobs are handed out in run order,
// strategies interleaved, so an interrupted search has covered every
// strategy about equally; outcomes are tallied by run index, so the result
// is the same for any number of workers. Each run sees ctx, so a cancel
// stops the runs in flight too.
func search(ctx context.Context, cfg Config, gens []*Generator, out []*StrategyResult) error {
	total := cfg.Runs * len(gens)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	var failed atomic.Bool // an error stops the other workers after their run
	for range min(cfg.Workers, total) {
		wg.Go(func() {
			for !failed.Load() && ctx.Err() == nil {
				j := int(next.Add(1) - 1)
				if j >= total {
					return
				}
				i, s := j/len(gens), j%len(gens)
				sched := gens[s].Schedule(i)
				rep, err := runOnce(ctx, gens[s].W, sched)
				if err != nil {
					once.Do(func() { firstErr = err; failed.Store(true) })
					return
				}
				if rep.Cancelled {
					return // cut off mid-run: it says nothing, so it is not counted
				}
				out[s].tally.add(i, outcomeOf(rep, sched), rep)
				if cfg.Progress != nil {
					cfg.Progress(int(done.Add(1)), total)
				}
			}
		})
	}
	wg.Wait()
	return firstErr
}

// runOnce runs w under a schedule and returns its report; ctx (nil: none)
// can cut the run short, which the report says (Cancelled).
func runOnce(ctx context.Context, w *World, sched []faults.Fault) (*runner.Report, error) {
	r, err := runner.New(w.Base, w.options(ctx, sched), false)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Run(), nil
}

// withHash runs sched once more with the trace hash on and returns that
// report, after checking that it is the run rep was (same verdict, metrics,
// first violation and event counts): the runs explore searches and shrinks
// with hash nothing (World.options), and determinism makes the hashed run
// the same run. A difference is a determinism bug, reported as an error.
// The run is bounded by the event budget but not by a context: after an
// interrupt it is the one run that still gets made, for its hash.
func withHash(w *World, sched []faults.Fault, rep *runner.Report) (*runner.Report, error) {
	hashed, err := runHashed(w, sched)
	if err != nil {
		return nil, err
	}
	if diff := sameRun(rep, hashed); diff != "" {
		return nil, fmt.Errorf("determinism bug: run again with its trace hash, the schedule gave another run (%s)", diff)
	}
	return hashed, nil
}

// runHashed runs w under sched with the trace hash on, to the end (no
// context): the run whose hash explore reports.
func runHashed(w *World, sched []faults.Fault) (*runner.Report, error) {
	o := scenario.Options{ExtraFaults: sched, EventBudget: w.Budget} // World.options, hashed
	r, err := runner.New(w.Base, o, false)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Run(), nil
}

// sameRun says how two reports of one schedule differ ("" when they do not)
// in what a trace hash cannot change: the verdict, the metrics, the first
// violation, the counts of trace and kernel events.
func sameRun(a, b *runner.Report) string {
	switch {
	case a.Metrics != b.Metrics:
		return fmt.Sprintf("metrics %+v, then %+v", a.Metrics, b.Metrics)
	case a.FirstViolation != b.FirstViolation:
		return fmt.Sprintf("first violation %q, then %q", a.FirstViolation, b.FirstViolation)
	case a.Events != b.Events || a.KernelSteps != b.KernelSteps:
		return fmt.Sprintf("%d trace and %d kernel events, then %d and %d", a.Events, a.KernelSteps, b.Events, b.KernelSteps)
	case a.BudgetExhausted != b.BudgetExhausted || a.OK != b.OK || a.StuckReason != b.StuckReason:
		return fmt.Sprintf("ok %t, budget exhausted %t, stuck %q, then %t, %t, %q",
			a.OK, a.BudgetExhausted, a.StuckReason, b.OK, b.BudgetExhausted, b.StuckReason)
	}
	return ""
}

func outcomeOf(rep *runner.Report, sched []faults.Fault) Outcome {
	return Outcome{Done: true, Violations: rep.Violations, LostUpdates: rep.LostUpdates,
		FencingRejections: rep.FencingRejections, WrongReleases: rep.WrongReleases, Stuck: rep.Stuck,
		BudgetExhausted: rep.BudgetExhausted,
		UnheldReleases:  rep.UnheldReleases, RefusedWrites: rep.RefusedWrites,
		DuplicateWrites: rep.DuplicateWrites, Deadlocks: rep.Deadlocks, Throughput: rep.Throughput,
		Skipped: len(rep.Skipped), Faults: len(sched), Kinds: kindBits(sched)}
}

// counterexamples shrinks and writes one counterexample per strategy that
// had a violation, strategies in parallel (each shrink is sequential, so
// deterministic). After an interrupt nothing is shrunk or run again: the
// violating schedule is written as found.
func counterexamples(ctx context.Context, cfg Config, gens []*Generator, res *Result) error {
	errs := make([]error, len(res.Strategies))
	var wg sync.WaitGroup
	for s, sr := range res.Strategies {
		if sr.tally.best < 0 {
			continue
		}
		wg.Go(func() {
			errs[s] = counterexample(ctx, cfg, gens[s], sr, res)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

func counterexample(ctx context.Context, cfg Config, g *Generator, sr *StrategyResult, res *Result) error {
	run := sr.tally.best
	orig := g.Schedule(run)
	cx := &Counterexample{Run: run, original: orig, OriginalFaults: faultLines(orig),
		schedule: orig, report: sr.tally.bestReport}
	if ctx.Err() == nil {
		sh, err := Shrink(ctx, g.W, orig, cfg.ShrinkBudget)
		if err != nil {
			return err
		}
		if sh.Report != nil && !sh.Report.Cancelled && sh.Report.Violations > 0 {
			cx.schedule, cx.report, cx.ShrinkRuns, cx.Minimal = sh.Faults, sh.Report, sh.Runs, sh.Minimal
			cx.Shrunk = ctx.Err() == nil
		}
	}
	rep, err := withHash(g.W, cx.schedule, cx.report)
	if err != nil {
		return fmt.Errorf("the %s counterexample: %w", sr.Strategy, err)
	}
	cx.report = rep
	cx.Faults = faultLines(cx.schedule)
	cx.Violations, cx.LostUpdates = cx.report.Violations, cx.report.LostUpdates
	cx.FirstViolation, cx.TraceHash = cx.report.FirstViolation, cx.report.TraceHash
	sr.Counterexample = cx
	if cfg.OutDir != "" {
		// After an interrupt the replay check is skipped: it is a whole
		// run, and the user asked to stop. The run it would repeat was
		// seen violating under the same options, deterministically.
		path, err := Write(cfg.OutDir, sr.world, cx, res, ctx.Err() == nil)
		if err != nil {
			return fmt.Errorf("writing the %s counterexample: %w", sr.Strategy, err)
		}
		cx.File = path
	}
	return nil
}

// faultLines are a schedule's faults as text, "at 1.5s: pause A for 31s".
func faultLines(fs []faults.Fault) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = FaultLine(f)
	}
	return out
}

// FaultLine is one fault as text, with its time.
func FaultLine(f faults.Fault) string { return "at " + f.At.String() + ": " + f.String() }
