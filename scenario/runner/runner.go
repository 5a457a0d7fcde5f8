package runner

import (
	"fmt"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/build"
	"github.com/lockstep-sim/lockstep/sim"
)

// Runner drives one run of a scenario. Its unit of progress is a trace
// event: Step runs the kernel until the next line of the trace appears, so
// "event k" means the same thing in the TUI, in --trace and in Rewind.
// Runners share nothing, so many can run in parallel goroutines.
type Runner struct {
	S    *scenario.Scenario
	Opts scenario.Options

	w             *model.World
	faults        []faults.Fault
	keep          bool
	wantsAll      bool // keep, or a sink: every event is wanted whole (wantMsg)
	subscribed    bool // observe is the trace's sink (subscribe)
	events        []sim.Event
	sinks         []func(sim.Event)
	skippedFaults []string // faults that named a process this world lacks
	over          bool     // the run has ended: duration reached (or budget spent, or cancelled)
	steps         int64    // kernel events run
	exhausted     bool     // the run ended because it spent its event budget
	cancelled     bool     // the run ended because Opts.Context was cancelled

	// inRun: a kernel run of runChecked is under way, since the kernel's
	// step runFrom (KernelSteps counts its events as they run).
	inRun   bool
	runFrom int

	// The lines the text report says in its language (id and args):
	skippedLines []traceLine // skippedFaults' lines
	deadlock     traceLine   // the first deadlock's line (the report's FirstDeadlock)
}

// New builds the world of s. With keep, the runner remembers every
// trace event (the TUI wants them; a headless run streams instead).
func New(s *scenario.Scenario, o scenario.Options, keep bool) (*Runner, error) {
	w, err := model.NewWorld(build.ModelConfig(s, o))
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", s.Name, err)
	}
	r := &Runner{S: s, Opts: o, w: w, keep: keep, wantsAll: keep, faults: build.FaultSchedule(s, o)}
	// The budget lives in the kernel, so that every loop that runs events
	// (Step, RunUntil, Rewind, end) is bounded by it, not only this file's.
	w.K.SetBudget(int(o.Budget()))
	if keep {
		r.subscribe()
	} else {
		w.NoteTold(r.note, "skipped", "deadlock") // until a sink comes (OnEvent)
	}
	if o.NoHash {
		w.K.Trace().StopHashing()
	}
	faults.Schedule(w, r.faults)
	return r, nil
}

// subscribe makes observe the trace's sink, in place of the world's
// NoteTold: a runner that keeps events or has sinks wants every one.
// A headless run has no sink at all, since the kernel would call one for
// every line (~37,000 in counter-30x200-loopback) and ask it about each
// line's text, for the two kinds note reads, which the world hands it.
func (r *Runner) subscribe() {
	if r.subscribed {
		return
	}
	r.subscribed = true
	r.w.NoteTold(nil)
	r.w.K.Trace().SubscribeMsgIf(r.observe, r.wantMsg)
}

// observe is the runner's sink for every trace event, once it has one
// (subscribe). The test of whether it wants an event is small enough to
// be inlined into the sink the kernel calls, and the rest (note) runs
// only for those it does.
func (r *Runner) observe(e sim.Event) {
	if r.wantMsg(e.Kind) { // the events that need more than their kind
		r.note(e)
	}
}

// note keeps event e, hands it to the sinks, or notes a skipped fault or a
// deadlock (observe).
func (r *Runner) note(e sim.Event) {
	if r.keep {
		r.events = append(r.events, e)
	}
	if e.Kind == "skipped" {
		r.skippedFaults = append(r.skippedFaults, e.Msg)
		r.skippedLines = append(r.skippedLines, lineOf(e))
	}
	if e.Kind == "deadlock" && r.deadlock.msg == "" {
		r.deadlock = lineOf(e)
	}
	for _, s := range r.sinks {
		s(e)
	}
}

// wantMsg says when observe needs an event's text: to keep it, to hand it to
// sinks, or to note a skipped fault or a deadlock. A headless run needs
// only the kinds, so the hot trace lines are hashed and never made into
// strings.
func (r *Runner) wantMsg(kind string) bool {
	return r.wantsAll || kind == "skipped" || kind == "deadlock"
}

// OnEvent adds a sink that sees every trace event from now on.
func (r *Runner) OnEvent(fn func(sim.Event)) {
	r.sinks = append(r.sinks, fn)
	r.wantsAll = true
	r.subscribe()
}

// World is the simulated world, for views that draw it.
func (r *Runner) World() *model.World { return r.w }

// Faults is the run's fault schedule, injected faults included.
func (r *Runner) Faults() []faults.Fault { return r.faults }

// Events are the trace events so far (only when the runner keeps them).
func (r *Runner) Events() []sim.Event { return r.events }

// EventCount is the number of trace events so far.
func (r *Runner) EventCount() int { return r.w.K.Trace().Len() }

// Now is the true simulated time.
func (r *Runner) Now() time.Duration { return r.w.Now() }

// Client is the client profile the run uses ("" for none): the
// strategy's profile when Opts names one, else the scenario's own.
func (r *Runner) Client() string { return runClient(r.S, r.Opts) }

// Over reports whether the run has ended.
func (r *Runner) Over() bool { return r.over }

// Step advances to the next trace event. It reports false once the run is
// over (and then closes the books: stuck and the final metrics).
func (r *Runner) Step() bool {
	if r.over {
		return false
	}
	start := r.EventCount()
	for r.EventCount() == start {
		if !r.stepKernel() {
			return false
		}
	}
	return true
}

// StepKernel runs one kernel event (the harness, which must let real
// goroutines settle between two); false once the run is over.
func (r *Runner) StepKernel() bool { return r.stepKernel() }

// stepKernel runs one kernel event, ending the run when there is nothing
// left to do within the duration. The run plays to its duration even after
// every client is done: what is still pending (a write in flight, a
// scheduled restart) lands, and the kernel jumps over idle time.
func (r *Runner) stepKernel() bool {
	if !r.goesOn() {
		return false
	}
	// An event is due (goesOn said so): only the kernel's budget refuses it.
	if !r.w.K.Step() {
		r.exhausted = true
		r.end()
		return false
	}
	r.steps++
	return true
}

// goesOn reports whether the run goes on to its next event: one is due
// within the duration, and the context, asked every
// scenario.CancelCheckEvery events, is not cancelled. Otherwise it ends
// the run.
func (r *Runner) goesOn() bool {
	if r.over {
		return false
	}
	at, ok := r.w.K.Next()
	if !ok || at > r.S.Duration {
		r.end()
		return false
	}
	if ctx := r.Opts.Context; ctx != nil && r.steps%scenario.CancelCheckEvery == 0 && ctx.Err() != nil {
		r.cancelled = true
		r.end()
		return false
	}
	return true
}

func (r *Runner) end() {
	if r.over {
		return
	}
	r.over = true
	switch {
	case r.exhausted:
		r.w.Tell("sim", "budget", "budget", sim.I("at_ns", int64(r.w.Now())), sim.I("events", int64(r.steps)))
	case r.cancelled:
		r.w.Tell("sim", "cancelled", "cancelled", sim.I("at_ns", int64(r.w.Now())), sim.I("events", int64(r.steps)))
	default:
		// Nothing is due before the end (stepKernel saw to it), so this only
		// moves the clock to the duration, where stuck is judged; the
		// kernel's budget bounds it all the same.
		r.w.K.RunUntil(r.S.Duration)
	}
	r.w.Finish()
	r.w.Tell("sim", "end", "run-end", sim.I("at_ns", int64(r.w.Now())))
}

// KernelSteps is the number of kernel events the run has taken (what the
// event budget counts). During runChecked's kernel run it is called from
// an event's handler (a sink), and counts that event once it is over, as
// stepKernel does.
func (r *Runner) KernelSteps() int64 {
	if r.inRun {
		return r.steps + int64(r.w.K.Steps()-r.runFrom) - 1
	}
	return r.steps
}

// BudgetExhausted reports whether the run ended by spending its event budget.
func (r *Runner) BudgetExhausted() bool { return r.exhausted }

// Cancelled reports whether the run ended because its context was cancelled.
func (r *Runner) Cancelled() bool { return r.cancelled }

// RunUntil steps until true time t (or the end of the run).
func (r *Runner) RunUntil(t time.Duration) {
	for !r.over {
		at, ok := r.w.K.Next()
		if ok && at > t {
			break
		}
		if !r.stepKernel() {
			break
		}
	}
}

// Run plays the scenario to its end and returns the report.
func (r *Runner) Run() *Report {
	if r.Opts.Context == nil && !r.over {
		r.runFree()
	}
	for r.runChecked() {
	}
	return r.Report()
}

// runChecked is stepKernel for the events up to the next check of the
// context (every scenario.CancelCheckEvery events, at the very counts
// stepKernel checks at), run in one kernel run: the simulated threads
// drive the kernel meanwhile (sim.Kernel.RunFor), where a Step each
// costs every wake two coroutine switches.
func (r *Runner) runChecked() bool {
	if !r.goesOn() {
		return false
	}
	k, every := r.w.K, int64(scenario.CancelCheckEvery)
	r.inRun, r.runFrom = true, k.Steps()
	refused := k.RunFor(r.S.Duration, int(every-r.steps%every))
	r.inRun = false
	r.steps += int64(k.Steps() - r.runFrom)
	if refused {
		r.exhausted = true
		r.end()
		return false
	}
	return true
}

// runFree is stepKernel's loop for a run with nothing to check between two
// events (no context to cancel it): the kernel's own RunUntil, which runs
// the same events (those due by the duration, within the budget), without
// a call and the runner's checks around each of a run's ~50,000 events.
func (r *Runner) runFree() {
	k := r.w.K
	before := k.Steps()
	k.RunUntil(r.S.Duration)
	r.steps += int64(k.Steps() - before)
	r.exhausted = k.Exhausted()
	r.end()
}

// Close releases the world's simulated threads.
func (r *Runner) Close() { r.w.Close() }

// Rewind returns a fresh runner replayed to trace event k: the simulation is
// deterministic, so replaying from the start is exact. The old runner is
// closed.
func (r *Runner) Rewind(k int) (*Runner, error) {
	nr, err := New(r.S, r.Opts, r.keep)
	if err != nil {
		return nil, err
	}
	for nr.EventCount() < k && nr.Step() {
	}
	r.Close()
	return nr, nil
}

// Metrics are the metrics so far.
func (r *Runner) Metrics() model.Metrics { return r.w.Chk.Metrics() }

// runClient is the profile a run of s under o uses: a profile named as
// o's strategy, none under another plain strategy, else s's own.
func runClient(s *scenario.Scenario, o scenario.Options) string {
	switch {
	case scenario.IsProfile(o.Strategy):
		return o.Strategy
	case o.Strategy != "" && o.Strategy != s.Lock.Strategy:
		return ""
	}
	return s.Lock.Client
}
