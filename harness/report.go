package harness

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/lockstep-sim/lockstep/internal/safefile"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/sim"
)

// Report is the verdict on the user's lock in one scenario. It embeds the
// judge's metrics, so every metric lockstep has is a field (Safe,
// Violations, LostUpdates, FencingRejections, WrongReleases, Stuck,
// Acquired, FailedAcquires, MaxWait, and any added later).
type Report struct {
	model.Metrics
	Scenario string
	Seed     uint64
	// FirstViolation explains the first moment two clients were in their
	// critical section together; "" when none was.
	FirstViolation string
	// StuckReason says why the lock was stuck at the end; "" when it was not.
	StuckReason string
	// TraceHash is the hash of the run's trace: the same test and seed give
	// the same hash.
	TraceHash string
	// SimTime is how much simulated time the run took.
	SimTime time.Duration
	// Events is the number of trace events; KernelEvents the kernel's.
	Events       int
	KernelEvents int64
	// BudgetExhausted: the run spent its event budget and was cut short.
	BudgetExhausted bool
	// WaitRounds is how many times the harness waited for every goroutine
	// to block (synctest.Wait): with the kernel events, what a run costs.
	WaitRounds int64

	trace []sim.Event
}

func newReport(r *scenario.Runner) Report {
	rep := r.Report()
	return Report{
		Metrics: rep.Metrics, Scenario: rep.Scenario, Seed: rep.Seed,
		FirstViolation: rep.FirstViolation, StuckReason: rep.StuckReason, TraceHash: rep.TraceHash,
		SimTime: r.Now(), Events: rep.Events, KernelEvents: rep.KernelSteps,
		BudgetExhausted: rep.BudgetExhausted, trace: r.Events(),
	}
}

// traceLine is one line of the trace as `lockstep run --trace` writes it.
type traceLine struct {
	Scenario string      `json:"scenario"`
	Seq      int         `json:"seq"`
	AtMS     json.Number `json:"at_ms"`
	Proc     string      `json:"proc"`
	Kind     string      `json:"kind"`
	Msg      string      `json:"msg"`
}

// TraceJSONL is the run's trace as JSON lines, the format of `lockstep run
// --trace`.
func (r *Report) TraceJSONL() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, e := range r.trace {
		// Encoding strings and numbers into a bytes.Buffer cannot fail.
		_ = enc.Encode(traceLine{r.Scenario, e.Seq, json.Number(sim.FormatMS(e.At)), e.Proc, e.Kind, e.Msg})
	}
	return b.Bytes()
}

// WriteTrace writes the trace to path as JSON lines, atomically; it never
// replaces an existing file (the error then wraps safefile.ErrExists).
func (r *Report) WriteTrace(path string) error {
	return safefile.WriteFile(path, r.TraceJSONL(), false)
}
