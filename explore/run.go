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
)

// DefaultRuns is how many schedules are explored per strategy by default.
const DefaultRuns = 1000

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
	Interrupted bool              `json:"interrupted"`       // stopped early; rates cover the runs that finished
	Strategies  []*StrategyResult `json:"strategies"`
	Elapsed     time.Duration     `json:"-"` // wall time; not part of the deterministic result
}

// StrategyResult is one strategy's share of a search.
type StrategyResult struct {
	Strategy string `json:"strategy"`
	Nodes    int    `json:"nodes"` // masters in its world
	Stats
	// Counterexample is the shrunk first violating schedule; nil when no
	// run violated safety.
	Counterexample *Counterexample `json:"counterexample,omitempty"`

	world    *World
	outcomes []Outcome
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
	report   *scenario.Report
}

// Schedule is the shrunk schedule itself.
func (cx *Counterexample) Schedule() []faults.Fault { return cx.schedule }

// Report is the shrunk schedule's run.
func (cx *Counterexample) Report() *scenario.Report { return cx.report }

// withDefaults fills in c's zero fields and checks it.
func (c Config) withDefaults() (Config, error) {
	if c.Scenario == nil {
		return c, errors.New("no scenario")
	}
	if len(c.Strategies) == 0 {
		c.Strategies = []string{c.Scenario.Lock.Strategy}
	}
	if err := scenario.CheckStrategies(c.Strategies); err != nil {
		return c, err
	}
	if len(c.Kinds) == 0 {
		c.Kinds = DefaultKinds
	}
	if c.Runs == 0 {
		c.Runs = DefaultRuns
	}
	if c.Runs < 0 {
		return c, fmt.Errorf("runs must be positive (got %d)", c.Runs)
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.MaxFaults == 0 {
		c.MaxFaults = DefaultMaxFaults
	}
	if c.ShrinkBudget == 0 {
		c.ShrinkBudget = DefaultShrinkBudget
	}
	return c, nil
}

// Explore runs the search: Runs schedules for each strategy, spread over
// Workers goroutines, then a shrink of each strategy's violating run with
// the fewest faults (the lowest run index among equals), written to OutDir
// when set. Cancelling ctx stops the search cleanly: the result covers the
// runs that finished (Interrupted is set), and a violation found so far is
// reported and written unshrunk. Errors are about the configuration or the
// output directory; a run never fails.
func Explore(ctx context.Context, cfg Config) (*Result, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	res := &Result{File: cfg.File, Scenario: cfg.Scenario.Name, Seed: cfg.Seed, Runs: cfg.Runs, MaxFaults: cfg.MaxFaults}
	for _, k := range cfg.Kinds {
		res.Kinds = append(res.Kinds, string(k))
	}
	gens := make([]*Generator, len(cfg.Strategies))
	for i, st := range cfg.Strategies {
		w := NewWorld(cfg.Scenario, st)
		gens[i] = &Generator{W: w, Kinds: cfg.Kinds, MaxFaults: cfg.MaxFaults, Seed: cfg.Seed}
		if err := gens[i].Check(); err != nil {
			return nil, err
		}
		if _, err := runOnce(w, nil); err != nil { // a world that cannot be built fails here, once
			return nil, err
		}
		res.Strategies = append(res.Strategies, &StrategyResult{Strategy: st, Nodes: w.Base.Redis.Nodes,
			world: w, outcomes: make([]Outcome, cfg.Runs)})
	}
	if cfg.OutDir != "" {
		if err := ensureDir(cfg.OutDir); err != nil {
			return nil, err
		}
	}

	start := time.Now()
	if err := search(ctx, cfg, gens, res.Strategies); err != nil {
		return nil, err
	}
	res.Interrupted = ctx.Err() != nil
	for _, sr := range res.Strategies {
		sr.Stats = Aggregate(sr.outcomes)
	}
	if err := counterexamples(ctx, cfg, gens, res); err != nil {
		return nil, err
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// search runs every (run, strategy) job. Jobs are handed out in run order,
// strategies interleaved, so an interrupted search has covered every
// strategy about equally; each outcome lands in its own slot, so the result
// is the same for any number of workers.
func search(ctx context.Context, cfg Config, gens []*Generator, out []*StrategyResult) error {
	total := cfg.Runs * len(gens)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range min(cfg.Workers, total) {
		wg.Go(func() {
			for ctx.Err() == nil {
				j := int(next.Add(1) - 1)
				if j >= total {
					return
				}
				i, s := j/len(gens), j%len(gens)
				o, err := runSchedule(gens[s].W, gens[s].Schedule(i))
				if err != nil {
					once.Do(func() { firstErr = err; cancel() })
					return
				}
				out[s].outcomes[i] = o
				if cfg.Progress != nil {
					cfg.Progress(int(done.Add(1)), total)
				}
			}
		})
	}
	wg.Wait()
	return firstErr
}

// runOnce runs w under a schedule and returns its report.
func runOnce(w *World, sched []faults.Fault) (*scenario.Report, error) {
	r, err := scenario.NewRunner(w.Base, scenario.Options{ExtraFaults: sched}, false)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Run(), nil
}

// runSchedule runs w under sched and keeps what the statistics need.
func runSchedule(w *World, sched []faults.Fault) (Outcome, error) {
	rep, err := runOnce(w, sched)
	if err != nil {
		return Outcome{}, err
	}
	return outcomeOf(rep, sched), nil
}

func outcomeOf(rep *scenario.Report, sched []faults.Fault) Outcome {
	return Outcome{Done: true, Violations: rep.Violations, LostUpdates: rep.LostUpdates,
		FencingRejections: rep.FencingRejections, WrongReleases: rep.WrongReleases, Stuck: rep.Stuck,
		Skipped: len(rep.Skipped), Faults: len(sched), Kinds: kindBits(sched)}
}

// counterexamples shrinks and writes one counterexample per strategy that
// had a violation, strategies in parallel (each shrink is sequential, so
// deterministic). After an interrupt nothing is shrunk: the violating
// schedule is written as found.
func counterexamples(ctx context.Context, cfg Config, gens []*Generator, res *Result) error {
	errs := make([]error, len(res.Strategies))
	var wg sync.WaitGroup
	for s, sr := range res.Strategies {
		run := pickViolating(sr.outcomes)
		if run < 0 {
			continue
		}
		wg.Go(func() {
			errs[s] = counterexample(ctx, cfg, gens[s], sr, run, res)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

func counterexample(ctx context.Context, cfg Config, g *Generator, sr *StrategyResult, run int, res *Result) error {
	orig := g.Schedule(run)
	cx := &Counterexample{Run: run, original: orig, OriginalFaults: faultLines(orig)}
	if ctx.Err() == nil {
		sh, err := Shrink(ctx, g.W, orig, cfg.ShrinkBudget)
		if err != nil {
			return err
		}
		cx.schedule, cx.report, cx.ShrinkRuns, cx.Minimal = sh.Faults, sh.Report, sh.Runs, sh.Minimal
		cx.Shrunk = ctx.Err() == nil
	} else {
		rep, err := runOnce(g.W, orig)
		if err != nil {
			return err
		}
		cx.schedule, cx.report = orig, rep
	}
	cx.Faults = faultLines(cx.schedule)
	cx.Violations, cx.LostUpdates = cx.report.Violations, cx.report.LostUpdates
	cx.FirstViolation, cx.TraceHash = cx.report.FirstViolation, cx.report.TraceHash
	sr.Counterexample = cx
	if cfg.OutDir != "" {
		path, err := Write(cfg.OutDir, sr.world, cx, res)
		if err != nil {
			return err
		}
		cx.File = path
	}
	return nil
}

// pickViolating is the violating run to shrink: the fewest faults, then
// the lowest index. -1 when no run violated.
func pickViolating(outs []Outcome) int {
	best := -1
	for i, o := range outs {
		if o.Done && o.Violations > 0 && (best < 0 || o.Faults < outs[best].Faults) {
			best = i
		}
	}
	return best
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
