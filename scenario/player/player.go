package player

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync/atomic"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/sim"
)

// Player plays one run of a scenario back and forth: a cursor over its
// steps, moved by Step, Back, Seek and SeekTime, and the world at the
// cursor (Snapshot). Both TUI views and the tests drive runs through it.
//
// An "oracle" run of the schedule, played to the end once by Open, gives
// the total step count, the time of every step, the full trace (for the
// log) and the timeline history; a Seeker serves the world's snapshot at
// the cursor from parked checkpoints, so that moving the cursor anywhere
// costs at most K + distance steps. The simulation is deterministic, so the
// oracle is exactly what the Seeker's runners replay.
//
// A step is one Runner.Step: the kernel runs until the trace gains a line,
// and one step may write several lines (a reply and the grant it makes).
//
// A Player is used from one goroutine; Close ends its runners.
type Player struct {
	s    *scenario.Scenario
	opts scenario.Options

	sk  Source        // a Seeker; a trace player for a recorded trace
	idx int           // the cursor's step: the world is as after bounds[idx] trace events
	at  time.Duration // cursor true time: at or after times[idx], before the next step

	bounds []int           // trace events after each step; bounds[0] = 0
	times  []time.Duration // true time at each step
	events []sim.Event     // the oracle's full trace
	hist   *History
	final  *runner.Report
	end    time.Duration
	// recorded says why a Player opened from a trace
	// (tracefile.OpenTrace) refuses faults and export; "" for a simulated
	// run.
	recorded string
}

// Source serves the world's snapshot at a step of the run: a Seeker
// re-simulates it; a recorded trace's player (scenario/tracefile) rebuilds
// it from the trace.
type Source interface {
	Snapshot(step int, at time.Duration) Snapshot
	Stats() SeekStats
	Spacing() int
	Settle()
	Close()
}

// Recorded is why the Player refuses to inject faults or export: it plays
// a recorded trace (tracefile.OpenTrace), which nothing re-simulates; ""
// for a simulated run.
func (p *Player) Recorded() string { return p.recorded }

// Recording is a run that is played back, not re-simulated: each of its
// events is one step.
type Recording struct {
	Scenario *scenario.Scenario // as far as the views need one
	Events   []sim.Event
	History  *History
	Final    *runner.Report
	// Note is why the Player refuses faults and export (Recorded); not "".
	Note string
}

// OpenRecording returns a Player at step 0 over rec whose snapshots src
// serves: step i is after the first i events.
func OpenRecording(rec Recording, src Source) *Player {
	p := &Player{s: rec.Scenario, sk: src, recorded: rec.Note, events: rec.Events, hist: rec.History, final: rec.Final}
	p.bounds, p.times = make([]int, len(rec.Events)+1), make([]time.Duration, len(rec.Events)+1)
	for i := range rec.Events {
		p.bounds[i+1], p.times[i+1] = i+1, rec.Events[i].At
	}
	if n := len(rec.Events); n > 0 {
		p.end = rec.Events[n-1].At
	}
	return p
}

// Open plays s under opts to the end and returns a Player at step 0.
func Open(s *scenario.Scenario, opts scenario.Options) (*Player, error) {
	return OpenContext(context.Background(), s, opts, nil)
}

// OpenContext is Open for a build off the UI goroutine: the oracle stops
// when ctx is done (the error is then ctx's), and progress, when not nil,
// counts the trace events played so far. opts.Context is ignored: the
// Player outlives the build that made it.
func OpenContext(ctx context.Context, s *scenario.Scenario, opts scenario.Options, progress *atomic.Int64) (*Player, error) {
	opts.Context = nil
	p := &Player{s: s, opts: opts}
	if err := p.replay(ctx, progress); err != nil {
		return nil, err
	}
	sk, err := NewSeeker(s, opts, p.times)
	if err != nil {
		return nil, err
	}
	p.sk = sk
	return p, nil
}

// replay runs the oracle: the schedule as it stands, to the end.
func (p *Player) replay(ctx context.Context, progress *atomic.Int64) error {
	opts := p.opts
	opts.Context = ctx
	o, err := runner.New(p.s, opts, true)
	if err != nil {
		return err
	}
	defer o.Close()
	h := Record(o)
	p.bounds, p.times = []int{0}, []time.Duration{0}
	for {
		more := o.Step()
		if n := o.EventCount(); n > p.bounds[len(p.bounds)-1] {
			p.bounds = append(p.bounds, n)
			p.times = append(p.times, o.Now())
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
	p.end = o.Now()
	h.Close(p.end)
	p.hist, p.events, p.final = h, o.Events(), o.Report()
	return nil
}

// Close ends the player's runners.
func (p *Player) Close() {
	if p.sk != nil {
		p.sk.Close()
		p.sk = nil
	}
}

// Scenario is the scenario being played.
func (p *Player) Scenario() *scenario.Scenario { return p.s }

// Options are the options of the run, live-injected faults included.
func (p *Player) Options() scenario.Options { return p.opts }

// Event is the number of trace events at the cursor.
func (p *Player) Event() int { return p.bounds[p.idx] }

// Total is the number of trace events of the whole run.
func (p *Player) Total() int { return p.bounds[len(p.bounds)-1] }

// StepAt is the cursor's step (0 = the start).
func (p *Player) StepAt() int { return p.idx }

// Steps is the number of steps of the whole run.
func (p *Player) Steps() int { return len(p.bounds) - 1 }

// StepTime is the true time of step i (clamped to the run).
func (p *Player) StepTime(i int) time.Duration { return p.times[max(0, min(i, len(p.times)-1))] }

// Now is the cursor's true time.
func (p *Player) Now() time.Duration { return p.at }

// End is the true time at which the run ends.
func (p *Player) End() time.Duration { return p.end }

// AtEnd reports whether the cursor is at the last step.
func (p *Player) AtEnd() bool { return p.idx == len(p.bounds)-1 }

// Final is the report of the whole run.
func (p *Player) Final() *runner.Report { return p.final }

// History is the timeline of the whole run (a view clips it at the cursor).
func (p *Player) History() *History { return p.hist }

// Events is the whole run's trace; the first Event() of them have happened.
func (p *Player) Events() []sim.Event { return p.events }

// Snapshot is the world at the cursor. This is where the simulation runs:
// at most K + distance steps since the last Snapshot (see Seeker).
func (p *Player) Snapshot() Snapshot { return p.sk.Snapshot(p.idx, p.at) }

// SeekStats is the work the player's seeks have done.
func (p *Player) SeekStats() SeekStats { return p.sk.Stats() }

// Spacing is K, the steps between the seeker's checkpoints.
func (p *Player) Spacing() int { return p.sk.Spacing() }

// Settle waits until every checkpoint is parked (tests and benchmarks).
func (p *Player) Settle() { p.sk.Settle() }

// Step moves one step forward; false at the end.
func (p *Player) Step() bool {
	if p.AtEnd() {
		return false
	}
	p.Seek(p.idx + 1)
	return true
}

// Back moves one step back; false at step 0.
func (p *Player) Back() bool {
	if p.idx == 0 {
		return false
	}
	p.Seek(p.idx - 1)
	return true
}

// Seek moves the cursor to step i (0 = the start), clamped to the run.
// It only moves the cursor: the next Snapshot does the work.
func (p *Player) Seek(i int) {
	p.idx = max(0, min(i, len(p.bounds)-1))
	p.at = p.times[p.idx]
}

// SeekTime moves the cursor to true time t (clamped to the run): the last
// step at or before t, with the cursor itself at t (so TTLs count down
// between events).
func (p *Player) SeekTime(t time.Duration) {
	t = max(0, min(t, p.end))
	i := sort.Search(len(p.times), func(i int) bool { return p.times[i] > t }) - 1
	p.Seek(max(i, 0))
	p.at = max(t, p.times[p.idx])
}

// NextTime is the true time of the next step, and false at the end.
func (p *Player) NextTime() (time.Duration, bool) {
	if p.AtEnd() {
		return 0, false
	}
	return p.times[p.idx+1], true
}

// PrevTime is the true time of the latest step strictly before the cursor.
func (p *Player) PrevTime() (time.Duration, bool) {
	i := sort.Search(len(p.times), func(i int) bool { return p.times[i] >= p.at }) - 1
	if i < 0 {
		return 0, false
	}
	return p.times[i], true
}

// IsMark reports whether e is one that the TUI's g jumps to: a fault, a violation,
// a wrong release or the release of a lock the client no longer holds, a
// deadlock (clients holding some of their keys wait for each other's), a
// write the resource refused as a duplicate (its idempotency key was
// taken), or a master starting or ceasing to refuse writes with NOREPLICAS
// (min_replicas_to_write: where the refused writes begin and end).
func IsMark(e sim.Event) bool {
	switch e.Kind {
	case "fault", "VIOLATION", "WRONG-RELEASE", "UNHELD-RELEASE", markDeadlock, markDuplicate, markNoReplicas:
		return true
	}
	return false
}

// The trace kinds of the marks the features of issue 13 added (written by
// model/recipe/multikey.go, model/resource and model/redis/acks.go).
const (
	markDeadlock   = "deadlock"
	markDuplicate  = "duplicate"
	markNoReplicas = "noreplicas"
)

// nextMark is the first fault or violation after the cursor.
func (p *Player) nextMark() (sim.Event, bool) {
	for _, e := range p.events[p.Event():] {
		if IsMark(e) {
			return e, true
		}
	}
	return sim.Event{}, false
}

// NextMark is the step at which the next fault or violation after the
// cursor happens, and false when there is none.
func (p *Player) NextMark() (int, bool) {
	e, ok := p.nextMark()
	if !ok {
		return 0, false
	}
	return sort.SearchInts(p.bounds, e.Seq), true
}

// NextMarkTime is the true time of the next fault or violation after the
// cursor, and false when there is none.
func (p *Player) NextMarkTime() (time.Duration, bool) {
	e, ok := p.nextMark()
	return time.Duration(e.At), ok
}

// WithFault checks f against the run at the cursor's true time (f.At is
// overwritten), as if it were written in the file, and returns the options
// of the run with f injected and f as it will strike. Opening a Player
// with them (OpenContext) gives a run identical to this one up to now.
func (p *Player) WithFault(f faults.Fault) (scenario.Options, faults.Fault, error) {
	if p.recorded != "" {
		return p.opts, f, errors.New(p.recorded)
	}
	f.At = p.at
	if f.At >= p.s.Duration {
		return p.opts, f, fmt.Errorf("the run is over at %s; step back to inject", sim.FormatTime(p.s.Duration))
	}
	chk := *p.s
	chk.Faults = append(append([]faults.Fault(nil), p.s.Faults...), f)
	if err := chk.Validate(); err != nil {
		return p.opts, f, err
	}
	o := p.opts
	o.ExtraFaults = append(append([]faults.Fault(nil), p.opts.ExtraFaults...), f)
	return o, f, nil
}

// Inject adds f to the run's schedule at the cursor's true time and
// replays on this goroutine; the cursor lands just after the fault strikes.
// The TUI builds the new run off the UI goroutine instead (WithFault,
// OpenContext, Adopt).
func (p *Player) Inject(f faults.Fault) error {
	o, f, err := p.WithFault(f)
	if err != nil {
		return err
	}
	np, err := Open(p.s, o)
	if err != nil {
		return err
	}
	p.Adopt(np, f.At)
	return nil
}

// Adopt makes p the run np (built with an injected fault), with the cursor
// at true time at; p's runners are closed and np must not be used again.
func (p *Player) Adopt(np *Player, at time.Duration) {
	p.Close()
	*p = *np
	p.SeekTime(at)
}

// Injected lists the faults injected live, in order.
func (p *Player) Injected() []faults.Fault { return p.opts.ExtraFaults }

// Export is the run, injected faults included, as a scenario file whose
// expectations are this run's outcome.
func (p *Player) Export() ([]byte, error) {
	if p.recorded != "" {
		return nil, errors.New(p.recorded)
	}
	return scenario.Export(p.s, p.opts, &p.final.Metrics)
}
