package views

import (
	"fmt"
	"sort"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/sim"
)

// Session is one scenario being watched: the live runner at the cursor, and
// an "oracle" run of the same schedule played to the end once, which gives
// the total event count, the step boundaries (for stepping back), the full
// trace (for the log) and the timeline history. The simulation is
// deterministic, so the oracle is exactly the future of the live run.
type Session struct {
	S    *scenario.Scenario
	Opts scenario.Options

	live *scenario.Runner
	idx  int           // Steps taken by the live runner: it is at bounds[idx]
	at   time.Duration // cursor true time: at or after the live runner's time, before its next event

	bounds []int           // event count after each Step of the oracle; bounds[0] = 0
	times  []time.Duration // true time at each bound
	events []sim.Event     // the oracle's full trace
	hist   *scenario.History
	final  *scenario.Report
	end    time.Duration
}

// Open starts watching s under opts at event 0.
func Open(s *scenario.Scenario, opts scenario.Options) (*Session, error) {
	ss := &Session{S: s, Opts: opts}
	if err := ss.replay(); err != nil {
		return nil, err
	}
	r, err := scenario.NewRunner(s, opts, false)
	if err != nil {
		return nil, err
	}
	ss.live = r
	return ss, nil
}

// replay runs the oracle: the schedule as it stands, to the end.
func (ss *Session) replay() error {
	o, err := scenario.NewRunner(ss.S, ss.Opts, true)
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
		}
		if !more {
			break
		}
	}
	ss.end = o.Now()
	h.Close(ss.end)
	ss.hist, ss.events, ss.final = h, o.Events(), o.Report()
	return nil
}

// Close ends the live runner's simulated threads.
func (ss *Session) Close() {
	if ss.live != nil {
		ss.live.Close()
		ss.live = nil
	}
}

// Event is the number of trace events at the cursor.
func (ss *Session) Event() int { return ss.bounds[ss.idx] }

// Total is the number of trace events of the whole run.
func (ss *Session) Total() int { return ss.bounds[len(ss.bounds)-1] }

// Now is the cursor's true time.
func (ss *Session) Now() time.Duration { return ss.at }

// End is the true time at which the run ends.
func (ss *Session) End() time.Duration { return ss.end }

// AtEnd reports whether the cursor is at the last event.
func (ss *Session) AtEnd() bool { return ss.idx == len(ss.bounds)-1 }

// Final is the report of the whole run.
func (ss *Session) Final() *scenario.Report { return ss.final }

// History is the timeline of the whole run (the view clips it at the cursor).
func (ss *Session) History() *scenario.History { return ss.hist }

// Events is the whole run's trace; the first Event() of them have happened.
func (ss *Session) Events() []sim.Event { return ss.events }

// Snapshot is the world at the cursor.
func (ss *Session) Snapshot() scenario.Snapshot { return ss.live.SnapshotAt(ss.at) }

// Runner is the live runner at the cursor (Mermaid, export).
func (ss *Session) Runner() *scenario.Runner { return ss.live }

// Step moves one event forward; false at the end.
func (ss *Session) Step() bool {
	if ss.AtEnd() {
		return false
	}
	ss.live.Step()
	ss.idx++
	ss.at = ss.times[ss.idx]
	return true
}

// Back moves one event back by replaying from the start; false at event 0.
func (ss *Session) Back() (bool, error) {
	if ss.idx == 0 {
		return false, nil
	}
	return true, ss.Seek(ss.idx - 1)
}

// Seek moves the cursor to step i (0 = the start).
func (ss *Session) Seek(i int) error {
	i = max(0, min(i, len(ss.bounds)-1))
	if i < ss.idx || ss.live == nil {
		r, err := scenario.NewRunner(ss.S, ss.Opts, false)
		if err != nil {
			return err
		}
		ss.Close()
		ss.live, ss.idx = r, 0
	}
	for ss.idx < i {
		ss.live.Step()
		ss.idx++
	}
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

// Inject adds f to the run's schedule at the cursor's true time (f.At is
// overwritten) and replays: the new run is identical to the old one up to
// now, and the cursor lands just after the fault strikes. The fault is
// validated as if it were written in the file.
func (ss *Session) Inject(f faults.Fault) error {
	f.At = ss.at
	if f.At >= ss.S.Duration {
		return fmt.Errorf("the run is over at %s; step back to inject", sim.FormatTime(ss.S.Duration))
	}
	chk := *ss.S
	chk.Faults = append(append([]faults.Fault(nil), ss.S.Faults...), f)
	if err := chk.Validate(); err != nil {
		return err
	}
	old := ss.Opts
	ss.Opts.ExtraFaults = append(append([]faults.Fault(nil), old.ExtraFaults...), f)
	if err := ss.replay(); err != nil {
		ss.Opts = old
		ss.replay()
		return err
	}
	ss.idx = len(ss.bounds) // force a fresh live runner
	return ss.SeekTime(f.At)
}

// Injected lists the faults injected live, in order.
func (ss *Session) Injected() []faults.Fault { return ss.Opts.ExtraFaults }

// Export is the run, injected faults included, as a scenario file whose
// expectations are this run's outcome.
func (ss *Session) Export() ([]byte, error) {
	return scenario.Export(ss.S, ss.Opts, ss.final)
}
