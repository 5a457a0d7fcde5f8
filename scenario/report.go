package scenario

import (
	"fmt"
	"io"
	"time"

	"github.com/lockstep-sim/lockstep/model"
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
	MaxWaitMS      int64          `json:"-"`
	SimTimeMS      int64          `json:"sim_time_ms"`
	Events         int            `json:"events"`
	Expectations   []ExpectResult `json:"expectations"`
	OK             bool           `json:"ok"`
	FirstViolation string         `json:"first_violation,omitempty"`
	StuckReason    string         `json:"stuck_reason,omitempty"`
	FirstDeadlock  string         `json:"first_deadlock,omitempty"` // clients waiting for each other's keys
	Skipped        []string       `json:"skipped_faults,omitempty"`
	TraceHash      string         `json:"trace_hash"`
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
}

// ExpectResult is one expectation checked against the run.
type ExpectResult struct {
	Field string `json:"field"`
	Want  string `json:"want"`
	Got   string `json:"got"`
	OK    bool   `json:"ok"`
}

// Report is the report of the run as it stands (final once the run is over).
func (r *Runner) Report() *Report {
	m := r.Metrics()
	rep := &Report{
		Scenario: r.S.Name, Title: r.S.Title, Strategy: r.w.Strategy().Name(), Client: runClient(r.S, r.Opts), Seed: r.w.Cfg.Seed,
		Metrics: m, MaxWaitMS: m.MaxWait.Milliseconds(),
		SimTimeMS: r.Now().Milliseconds(), Events: r.EventCount(), OK: true,
		FirstViolation: r.w.Chk.FirstViolation(), StuckReason: r.w.Chk.StuckReason(),
		TraceHash: fmt.Sprintf("%016x", r.w.K.Trace().Hash()), Skipped: r.skippedFaults,
		Expectations:    []ExpectResult{},
		BudgetExhausted: r.exhausted, Cancelled: r.cancelled, KernelSteps: r.steps,
	}
	rep.FirstDeadlock = r.w.Chk.FirstDeadlock()
	if r.exhausted || r.cancelled {
		rep.OK = false
	}
	for _, e := range r.S.Expect {
		got, _ := m.Get(e.Metric)
		ok := e.Check(got)
		rep.Expectations = append(rep.Expectations, ExpectResult{Field: e.Metric, Want: e.Raw, Got: formatMetric(e.Metric, got), OK: ok})
		if !ok {
			rep.OK = false
		}
	}
	return rep
}

// Verdict is the one-word summary: SAFE or UNSAFE, with STUCK when a grant
// outlived its owner's critical section.
func (rep *Report) Verdict() string {
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
		v = "BUDGET EXHAUSTED (" + v + " until then)"
	case rep.Cancelled:
		v = "CANCELLED (" + v + " until then)"
	}
	return v
}

// WriteText prints the report as the human-readable block of `lockstep run`.
func (rep *Report) WriteText(w io.Writer) {
	status := "ok"
	if !rep.OK {
		status = "FAILED"
	}
	fmt.Fprintf(w, "%s  [%s]  %s\n", rep.Scenario, status, rep.Verdict())
	if rep.Title != "" {
		fmt.Fprintf(w, "  %s\n", rep.Title)
	}
	fmt.Fprintf(w, "  strategy %s%s, seed %d, %s simulated, %d events\n", rep.Strategy, clientText(rep.Client), rep.Seed,
		sim.FormatTime(time.Duration(rep.SimTimeMS)*time.Millisecond), rep.Events)
	fmt.Fprintf(w, "  %s\n  %s\n", metricsText(rep, 1), metricsText(rep, 2))
	for _, e := range rep.Expectations {
		mark := "✓"
		if !e.OK {
			mark = "✗"
		}
		fmt.Fprintf(w, "  %s %s %s (got %s)\n", mark, e.Field, e.Want, e.Got)
	}
	if rep.FirstViolation != "" {
		fmt.Fprintf(w, "  first violation: %s\n", rep.FirstViolation)
	}
	if rep.StuckReason != "" {
		fmt.Fprintf(w, "  stuck: %s\n", rep.StuckReason)
	}
	if rep.FirstDeadlock != "" {
		fmt.Fprintf(w, "  deadlock: %s\n", rep.FirstDeadlock)
	}
	switch {
	case rep.BudgetExhausted:
		fmt.Fprintf(w, "  event budget exhausted at t=%s after %d kernel events: the run was cut short and judges only what ran (raise it with --budget)\n",
			sim.FormatTime(time.Duration(rep.SimTimeMS)*time.Millisecond), rep.KernelSteps)
	case rep.Cancelled:
		fmt.Fprintf(w, "  cancelled at t=%s: the run was stopped before its end\n", sim.FormatTime(time.Duration(rep.SimTimeMS)*time.Millisecond))
	}
	for _, s := range rep.Skipped {
		fmt.Fprintf(w, "  skipped: %s\n", s)
	}
	if !rep.OK {
		cmd := rep.Reproduce
		if cmd == "" {
			cmd = fmt.Sprintf("lockstep run -s %s --seed %d", rep.Scenario, rep.Seed)
		}
		fmt.Fprintf(w, "  reproduce: %s\n", cmd)
	}
}
