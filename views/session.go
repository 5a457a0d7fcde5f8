package views

import (
	"context"
	"fmt"
	"sort"
	"sync/atomic"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/sim"
)

// Session is one scenario being watched. An "oracle" run of the schedule,
// played to the end once, gives the total step count, the time of every
// step, the full trace (for the log) and the timeline history; a
// scenario.Seeker serves the world's snapshot at the cursor from parked
// checkpoints, so that moving the cursor anywhere costs at most K +
// distance steps. The simulation is deterministic, so the oracle is exactly
// what the Seeker's runners replay.
//
// A step is one Runner.Step: the kernel runs until the trace gains a line,
// and one step may write several lines (a reply and the grant it makes).
type Session struct {
	S    *scenario.Scenario
	Opts scenario.Options

	sk  *scenario.Seeker
	idx int           // the cursor's step: the world is as after bounds[idx] trace events
	at  time.Duration // cursor true time: at or after times[idx], before the next step

	bounds []int           // trace events after each step; bounds[0] = 0
	times  []time.Duration // true time at each step
	events []sim.Event     // the oracle's full trace
	hist   *scenario.History
	final  *scenario.Report
	end    time.Duration
}

// Open starts watching s under opts at step 0.
func Open(s *scenario.Scenario, opts scenario.Options) (*Session, error) {
	return OpenContext(context.Background(), s, opts, nil)
}

// OpenContext is Open for a build off the UI goroutine: the oracle stops
// when ctx is done (the error is then ctx's), and progress, when not nil,
// counts the trace events played so far.
func OpenContext(ctx context.Context, s *scenario.Scenario, opts scenario.Options, progress *atomic.Int64) (*Session, error) {
	opts.Context = nil // a session outlives the build that made it
	ss := &Session{S: s, Opts: opts}
	if err := ss.replay(ctx, progress); err != nil {
		return nil, err
	}
	sk, err := scenario.NewSeeker(s, opts, ss.times)
	if err != nil {
		return nil, err
	}
	ss.sk = sk
	return ss, nil
}

// replay runs the oracle: the schedule as it stands, to the end.
func (ss *Session) replay(ctx context.Context, progress *atomic.Int64) error {
	opts := ss.Opts
	opts.Context = ctx
	o, err := scenario.NewRunner(ss.S, opts, true)
	if err != nil {
		return err
	}
	defer o.Close()
	h := o.Record()
	ss.bounds, ss.times = []int{0}, []time.Duration{0}
	for {
		more := o.Step()
		if n := o.EventCount(); n > ss.bounds[len(ss.bounds)-1] {
			ss.bounds = append(ss.bounds, n)
			ss.times = append(ss.times, o.Now())
			if progress != nil {
				progress.Store(int64(n))
			}
		}
		if !more {
			break
		}
	}
	if o.Cancelled() {
		return ctx.Err()
	}
	ss.end = o.Now()
	h.Close(ss.end)
	ss.hist, ss.events, ss.final = h, o.Events(), o.Report()
	return nil
}

// Close ends the session's runners.
func (ss *Session) Close() {
	if ss.sk != nil {
		ss.sk.Close()
		ss.sk = nil
	}
}

// Event is the number of trace events at the cursor.
func (ss *Session) Event() int { return ss.bounds[ss.idx] }

// Total is the number of trace events of the whole run.
func (ss *Session) Total() int { return ss.bounds[len(ss.bounds)-1] }

// StepAt is the cursor's step (0 = the start).
func (ss *Session) StepAt() int { return ss.idx }

// Steps is the number of steps of the whole run.
func (ss *Session) Steps() int { return len(ss.bounds) - 1 }

// Now is the cursor's true time.
func (ss *Session) Now() time.Duration { return ss.at }

// End is the true time at which the run ends.
func (ss *Session) End() time.Duration { return ss.end }

// AtEnd reports whether the cursor is at the last step.
func (ss *Session) AtEnd() bool { return ss.idx == len(ss.bounds)-1 }

// Final is the report of the whole run.
func (ss *Session) Final() *scenario.Report { return ss.final }

// History is the timeline of the whole run (the view clips it at the cursor).
func (ss *Session) History() *scenario.History { return ss.hist }

// Events is the whole run's trace; the first Event() of them have happened.
func (ss *Session) Events() []sim.Event { return ss.events }

// Snapshot is the world at the cursor. This is where the simulation runs:
// at most K + distance steps since the last Snapshot (see scenario.Seeker).
func (ss *Session) Snapshot() scenario.Snapshot { return ss.sk.Snapshot(ss.idx, ss.at) }

// SeekStats is the work the session's seeks have done.
func (ss *Session) SeekStats() scenario.SeekStats { return ss.sk.Stats() }

// Step moves one step forward; false at the end.
func (ss *Session) Step() bool {
	if ss.AtEnd() {
		return false
	}
	ss.idx++
	ss.at = ss.times[ss.idx]
	return true
}

// Back moves one step back; false at step 0.
func (ss *Session) Back() (bool, error) {
	if ss.idx == 0 {
		return false, nil
	}
	return true, ss.Seek(ss.idx - 1)
}

// Seek moves the cursor to step i (0 = the start), clamped to the run.
func (ss *Session) Seek(i int) error {
	ss.idx = max(0, min(i, len(ss.bounds)-1))
	ss.at = ss.times[ss.idx]
	return nil
}

// SeekTime moves the cursor to true time t: the last event at or before t,
// with the cursor itself at t (so TTLs count down between events).
func (ss *Session) SeekTime(t time.Duration) error {
	t = max(0, min(t, ss.end))
	i := sort.Search(len(ss.times), func(i int) bool { return ss.times[i] > t }) - 1
	if err := ss.Seek(max(i, 0)); err != nil {
		return err
	}
	ss.at = max(t, ss.times[ss.idx])
	return nil
}

// NextTime is the true time of the next event, and false at the end.
func (ss *Session) NextTime() (time.Duration, bool) {
	if ss.AtEnd() {
		return 0, false
	}
	return ss.times[ss.idx+1], true
}

// PrevTime is the true time of the latest event strictly before the cursor.
func (ss *Session) PrevTime() (time.Duration, bool) {
	i := sort.Search(len(ss.times), func(i int) bool { return ss.times[i] >= ss.at }) - 1
	if i < 0 {
		return 0, false
	}
	return ss.times[i], true
}

// NextMark is the step at which the next fault or violation after the
// cursor happens, and false when there is none.
func (ss *Session) NextMark() (int, bool) {
	cur := ss.Event()
	for _, e := range ss.events[cur:] {
		if e.Kind == "fault" || e.Kind == "VIOLATION" || e.Kind == "WRONG-RELEASE" {
			return sort.SearchInts(ss.bounds, e.Seq), true
		}
	}
	return 0, false
}

// WithFault checks f against the run at the cursor's true time (f.At is
// overwritten), as if it were written in the file, and returns the options
// of the run with f injected and f as it will strike. Building a session
// from them (OpenContext) gives a run identical to this one up to now.
func (ss *Session) WithFault(f faults.Fault) (scenario.Options, faults.Fault, error) {
	f.At = ss.at
	if f.At >= ss.S.Duration {
		return ss.Opts, f, fmt.Errorf("the run is over at %s; step back to inject", sim.FormatTime(ss.S.Duration))
	}
	chk := *ss.S
	chk.Faults = append(append([]faults.Fault(nil), ss.S.Faults...), f)
	if err := chk.Validate(); err != nil {
		return ss.Opts, f, err
	}
	o := ss.Opts
	o.ExtraFaults = append(append([]faults.Fault(nil), ss.Opts.ExtraFaults...), f)
	return o, f, nil
}

// Inject adds f to the run's schedule at the cursor's true time and
// replays on this goroutine; the cursor lands just after the fault strikes.
// The TUI builds the new run off the UI goroutine instead (WithFault,
// OpenContext, Adopt).
func (ss *Session) Inject(f faults.Fault) error {
	o, f, err := ss.WithFault(f)
	if err != nil {
		return err
	}
	nss, err := Open(ss.S, o)
	if err != nil {
		return err
	}
	ss.Adopt(nss, f.At)
	return nil
}

// Adopt makes ss the run nss (built with an injected fault), with the
// cursor at true time at; ss's runners are closed.
func (ss *Session) Adopt(nss *Session, at time.Duration) {
	ss.Close()
	*ss = *nss
	ss.SeekTime(at)
}

// Injected lists the faults injected live, in order.
func (ss *Session) Injected() []faults.Fault { return ss.Opts.ExtraFaults }

// Export is the run, injected faults included, as a scenario file whose
// expectations are this run's outcome.
func (ss *Session) Export() ([]byte, error) {
	return scenario.Export(ss.S, ss.Opts, ss.final)
}
