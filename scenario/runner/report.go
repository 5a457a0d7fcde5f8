package runner

import (
	"fmt"
	"io"
	"time"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/sim"
)

// Report is the outcome of one run: the verdict, every metric, each
// expectation checked, and the explanation of what went wrong first. Its
// JSON form is what `lockstep run --json` prints; field names are the
// format's metric names.
type Report struct {
	Scenario string `json:"scenario"`
	Title    string `json:"title,omitempty"`
	Strategy string `json:"strategy"`
	// Client is the lock.client profile the run used; "" (and no key in
	// the JSON) for none.
	Client string `json:"client,omitempty"`
	Seed   uint64 `json:"seed"`
	// The metrics, flattened into the JSON object after seed by their
	// format names (MarshalJSON, from model's table); max_wait in
	// milliseconds.
	model.Metrics
	MaxWaitMS      int64                   `json:"-"`
	SimTimeMS      int64                   `json:"sim_time_ms"`
	Events         int                     `json:"events"`
	Expectations   []scenario.ExpectResult `json:"expectations"`
	OK             bool                    `json:"ok"`
	FirstViolation string                  `json:"first_violation,omitempty"`
	StuckReason    string                  `json:"stuck_reason,omitempty"`
	FirstDeadlock  string                  `json:"first_deadlock,omitempty"` // clients waiting for each other's keys
	// TitleZH is the title in Simplified Chinese, for the text report under
	// --lang zh; --json carries only the English (machine output is
	// language-neutral).
	TitleZH string `json:"-"`
	// FirstViolationPhrase and StuckReasonPhrase are the explanations
	// unrendered: the text report renders them in zh only when asked (an
	// explore run makes a Report for every schedule and never prints most
	// of them). A recorded trace's report (scenario/tracefile) fills them
	// from its own judge.
	FirstViolationPhrase judge.Phrase `json:"-"`
	StuckReasonPhrase    judge.Phrase `json:"-"`
	Skipped              []string     `json:"skipped_faults,omitempty"`
	TraceHash            string       `json:"trace_hash"`
	// BudgetExhausted: the run spent its event budget and was cut short at
	// SimTimeMS; its metrics judge only what ran, so the report is never OK.
	BudgetExhausted bool `json:"budget_exhausted"`
	// Cancelled: the run was stopped from outside (ctrl+c); never OK.
	Cancelled bool `json:"cancelled,omitempty"`
	// KernelSteps is what the event budget counted.
	KernelSteps int64 `json:"kernel_events"`
	// Reproduce is the command WriteText prints under a failed report; the
	// CLI sets it from its own invocation (file, flags). "" prints the
	// bundled file's command.
	Reproduce string `json:"-"`

	// skipped are Skipped's trace lines unrendered (id and args), so the
	// text report says them in its language; nil for a report not made by
	// a Runner, which then prints Skipped as it is.
	skipped []traceLine
	// deadlock is FirstDeadlock's trace line unrendered, likewise.
	deadlock traceLine
}

// traceHash is the trace's hash as the report writes it; "" for a run
// without one (Options.NoHash).
func traceHash(t *sim.Trace) string {
	if !t.Hashing() {
		return ""
	}
	return fmt.Sprintf("%016x", t.Hash())
}

// Report is the report of the run as it stands (final once the run is over).
func (r *Runner) Report() *Report {
	m := r.Metrics()
	rep := &Report{
		Scenario: r.S.Name, Title: r.S.Title, Strategy: r.w.Strategy().Name(), Client: runClient(r.S, r.Opts), Seed: r.w.Cfg.Seed,
		Metrics: m, MaxWaitMS: m.MaxWait.Milliseconds(),
		SimTimeMS: r.Now().Milliseconds(), Events: r.EventCount(), OK: true,
		FirstViolation: r.w.Chk.FirstViolation(), StuckReason: r.w.Chk.StuckReason(),
		TraceHash: traceHash(r.w.K.Trace()), Skipped: r.skippedFaults, skipped: r.skippedLines,
		Expectations:    []scenario.ExpectResult{},
		BudgetExhausted: r.exhausted, Cancelled: r.cancelled, KernelSteps: r.steps,
	}
	rep.FirstDeadlock, rep.deadlock = r.w.Chk.FirstDeadlock(), r.deadlock
	rep.TitleZH, rep.FirstViolationPhrase, rep.StuckReasonPhrase = r.S.TitleIn(scenario.LangChinese), r.w.Chk.FirstViolationPhrase(), r.w.Chk.StuckReasonPhrase()
	if r.exhausted || r.cancelled {
		rep.OK = false
	}
	for _, e := range r.S.Expect {
		res := e.Result(m)
		rep.Expectations = append(rep.Expectations, res)
		rep.OK = rep.OK && res.OK
	}
	return rep
}

// Verdict is the one-word summary: SAFE or UNSAFE, with STUCK when a grant
// outlived its owner's critical section.
func (rep *Report) Verdict() string { return rep.VerdictIn(i18n.EN) }

// VerdictIn is Verdict in l: the verdict's words stay the format's (SAFE,
// STUCK, BUDGET EXHAUSTED), the sentence around a cut-short one is l's.
func (rep *Report) VerdictIn(l i18n.Lang) string {
	v := "SAFE"
	if !rep.Safe {
		v = "UNSAFE"
	}
	if rep.Stuck {
		v += ", STUCK"
	}
	// A run cut short proves nothing safe: say so before the partial verdict.
	switch {
	case rep.BudgetExhausted:
		v = l.Sprintf("BUDGET EXHAUSTED (%s until then)", v)
	case rep.Cancelled:
		v = l.Sprintf("CANCELLED (%s until then)", v)
	}
	return v
}

// WriteText prints the report as the human-readable block of `lockstep run`.
func (rep *Report) WriteText(w io.Writer) {
	l := i18n.Current()
	status := "ok"
	if !rep.OK {
		status = "FAILED"
	}
	fmt.Fprintf(w, "%s  [%s]  %s\n", rep.Scenario, status, rep.VerdictIn(l))
	title := rep.Title
	if l == i18n.ZH && rep.TitleZH != "" {
		title = rep.TitleZH
	}
	if title != "" {
		fmt.Fprintf(w, "  %s\n", title)
	}
	fmt.Fprint(w, l.Sprintf("  strategy %s%s, seed %d, %s simulated, %d events\n", rep.Strategy, clientText(l, rep.Client), rep.Seed,
		sim.FormatTime(time.Duration(rep.SimTimeMS)*time.Millisecond), rep.Events))
	fmt.Fprintf(w, "  %s\n  %s\n", metricsText(rep, 1), metricsText(rep, 2))
	for _, e := range rep.Expectations {
		mark := "✓"
		if !e.OK {
			mark = "✗"
		}
		fmt.Fprint(w, l.Sprintf("  %s %s %s (got %s)\n", mark, e.Field, e.Want, e.Got))
	}
	rep.writeFindings(w, l)
	if !rep.OK {
		cmd := rep.Reproduce
		if cmd == "" {
			cmd = fmt.Sprintf("lockstep run -s %s --seed %d", rep.Scenario, rep.Seed)
		}
		fmt.Fprint(w, l.Sprintf("  reproduce: %s\n", cmd))
	}
}

// writeFindings is the text report's explanations: the first violation,
// why it is stuck, a deadlock, a cut-short run, skipped faults.
func (rep *Report) writeFindings(w io.Writer, l i18n.Lang) {
	if fv := rep.in(l, rep.FirstViolation, rep.FirstViolationPhrase); fv != "" {
		fmt.Fprint(w, l.Sprintf("  first violation: %s\n", fv))
	}
	if sr := rep.in(l, rep.StuckReason, rep.StuckReasonPhrase); sr != "" {
		fmt.Fprint(w, l.Sprintf("  stuck: %s\n", sr))
	}
	if rep.FirstDeadlock != "" {
		fmt.Fprint(w, l.Sprintf("  deadlock: %s\n", rep.deadlockIn(l)))
	}
	at := sim.FormatTime(time.Duration(rep.SimTimeMS) * time.Millisecond)
	switch {
	case rep.BudgetExhausted:
		fmt.Fprint(w, l.Sprintf("  event budget exhausted at t=%s after %d kernel events: the run was cut short and judges only what ran (raise it with --budget)\n",
			at, rep.KernelSteps))
	case rep.Cancelled:
		fmt.Fprint(w, l.Sprintf("  cancelled at t=%s: the run was stopped before its end\n", at))
	}
	for _, s := range rep.skippedIn(l) {
		fmt.Fprint(w, l.Sprintf("  skipped: %s\n", s))
	}
}

// in is text en in language l: phrase p rendered in zh when l is zh and
// there is one.
func (rep *Report) in(l i18n.Lang, en string, p judge.Phrase) string {
	if l == i18n.ZH && p.ID != "" {
		return p.In(scenario.LangChinese)
	}
	return en
}

// clientText is how the reports name a profile after the strategy:
// " (client redsync)", "" for none.
func clientText(l i18n.Lang, client string) string {
	if client == "" {
		return ""
	}
	return l.Sprintf(" (client %s)", client)
}

// deadlockIn is FirstDeadlock in l: its trace line rendered from its id in
// zh, when the report has that line and it is still what FirstDeadlock
// says (the English otherwise, as the catalogue's fallback is).
func (rep *Report) deadlockIn(l i18n.Lang) string {
	if l == i18n.EN || rep.deadlock.msg != rep.FirstDeadlock {
		return rep.FirstDeadlock
	}
	return rep.deadlock.in(l)
}
