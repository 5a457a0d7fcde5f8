package harness

import (
	"fmt"
	"time"

	"github.com/lockstep-sim/lockstep/internal/safefile"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario/runner"
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

	trace *traceRecord // the trace file (TraceJSONL), encoded when asked for
}

func newReport(r *runner.Runner) Report {
	rep := r.Report()
	return Report{
		Metrics: rep.Metrics, Scenario: rep.Scenario, Seed: rep.Seed,
		FirstViolation: rep.FirstViolation, StuckReason: rep.StuckReason, TraceHash: rep.TraceHash,
		SimTime: r.Now(), Events: rep.Events, KernelEvents: rep.KernelSteps,
		BudgetExhausted: rep.BudgetExhausted,
	}
}

// TraceJSONL is the run's trace file: JSON lines in the format of `lockstep
// run --trace` (docs/trace-format.md: a header, the events with message ids,
// the judge's history, an end record), which `lockstep tui --trace` opens
// and `lockstep check` judges.
// It is encoded on the first call (nil for a Report that ran nothing).
func (r *Report) TraceJSONL() []byte {
	b, _ := r.traceFile()
	return b
}

func (r *Report) traceFile() ([]byte, error) {
	if r.trace == nil {
		return nil, nil
	}
	return r.trace.jsonl()
}

// WriteTrace writes the trace to path as JSON lines, atomically; it never
// replaces an existing file (the error then wraps safefile.ErrExists).
func (r *Report) WriteTrace(path string) error {
	b, err := r.traceFile()
	if err != nil {
		return fmt.Errorf("lockstep harness: encoding the trace: %w", err)
	}
	return safefile.WriteFile(path, b, false)
}
