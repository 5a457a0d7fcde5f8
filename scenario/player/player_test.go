package player

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// openPlayer opens the bundled scenario name; the test closes it.
func openPlayer(t *testing.T, name string, o scenario.Options) *Player {
	t.Helper()
	p, err := Open(scenariotest.Scenario(t, name), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// Back is a deterministic replay: the world one step back equals the world
// stepped forward to there from scratch; back at the start says so.
func TestPlayerBackIsTheSameWorld(t *testing.T) {
	p := openPlayer(t, "gc-pause-wrong-delete", scenario.Options{})
	for range 5 {
		if !p.Step() {
			t.Fatal("the run ended within 5 steps")
		}
	}
	if p.Event() != 5 || p.StepAt() != 5 {
		t.Fatalf("after 5 steps: step %d, event %d; want 5, 5", p.StepAt(), p.Event())
	}
	_ = p.Snapshot() // the live runner now stands at step 5: back must not reuse it as is
	if !p.Back() || p.Event() != 4 {
		t.Fatalf("after back: event %d, want 4", p.Event())
	}
	fresh := openPlayer(t, "gc-pause-wrong-delete", scenario.Options{})
	for range 4 {
		fresh.Step()
	}
	if got, want := p.Snapshot(), fresh.Snapshot(); !reflect.DeepEqual(got, want) {
		t.Fatalf("snapshot after back differs from stepping forward:\n got %+v\nwant %+v", got, want)
	}
	for p.Back() {
	}
	if p.StepAt() != 0 || p.Event() != 0 || p.Now() != 0 {
		t.Fatalf("back to the start: step %d, event %d at %v", p.StepAt(), p.Event(), p.Now())
	}
}

// A step may write several trace lines (a violation and the grant that
// caused it): back lands before all of them, and n after all of them.
func TestPlayerBackOverMultiEventStep(t *testing.T) {
	p := openPlayer(t, "gc-pause-wrong-delete", scenario.Options{})
	p.Seek(31)
	if p.Event() != 32 {
		t.Fatalf("the violating step should land at event 32, got %d", p.Event())
	}
	p.Back()
	if p.Event() != 30 {
		t.Fatalf("back from 32: event %d, want 30", p.Event())
	}
	p.Step()
	if p.Event() != 32 {
		t.Fatalf("forward again: event %d, want 32", p.Event())
	}
}

// Seek clamps to the run; SeekTime puts the cursor at the time asked for,
// on the last step at or before it, clamped to [0, End]; NextTime and
// PrevTime name the neighbouring steps.
func TestPlayerSeekTime(t *testing.T) {
	p := openPlayer(t, "fair-fifo", scenario.Options{})
	p.Seek(p.Steps() + 10)
	if !p.AtEnd() || p.StepAt() != p.Steps() {
		t.Fatalf("seek past the end: step %d of %d", p.StepAt(), p.Steps())
	}
	if _, ok := p.NextTime(); ok {
		t.Fatal("NextTime at the end reports a step")
	}
	p.SeekTime(12500 * time.Millisecond)
	i := p.StepAt()
	if p.Now() != 12500*time.Millisecond || p.StepTime(i) > p.Now() || (i < p.Steps() && p.StepTime(i+1) <= p.Now()) {
		t.Fatalf("12.5s: step %d at %v, cursor %v: not the last step at or before the cursor", i, p.StepTime(i), p.Now())
	}
	if next, ok := p.NextTime(); !ok || next != p.StepTime(i+1) {
		t.Fatalf("NextTime %v %v, want %v", next, ok, p.StepTime(i+1))
	}
	if prev, ok := p.PrevTime(); !ok || prev != p.StepTime(i) {
		t.Fatalf("PrevTime between steps %v %v, want step %d's %v", prev, ok, i, p.StepTime(i))
	}
	p.SeekTime(p.End() + time.Hour)
	if p.Now() != p.End() || !p.AtEnd() {
		t.Fatalf("seek past the end: at %v, end %v", p.Now(), p.End())
	}
	p.SeekTime(-time.Second)
	if p.Now() != 0 || p.StepAt() != 0 {
		t.Fatalf("seek before the start: step %d at %v", p.StepAt(), p.Now())
	}
	if _, ok := p.PrevTime(); ok {
		t.Fatal("PrevTime at the start reports a step")
	}
}

// NextMark goes to the next fault, then to the violation; NextMarkTime is
// that step's time.
func TestPlayerNextMark(t *testing.T) {
	p := openPlayer(t, "gc-pause-wrong-delete", scenario.Options{})
	want := []string{"fault", "VIOLATION"}
	for n, kind := range want {
		i, ok := p.NextMark()
		at, tok := p.NextMarkTime()
		if !ok || !tok {
			t.Fatalf("mark %d: none", n)
		}
		if at != p.StepTime(i) {
			t.Fatalf("mark %d: NextMarkTime %v, step %d is at %v", n, at, i, p.StepTime(i))
		}
		p.Seek(i)
		if e := p.Events()[p.Event()-1]; e.Kind != kind {
			t.Fatalf("mark %d should land after a %s, landed after %v", n, kind, e)
		}
	}
	if e := p.Events()[p.Event()-2]; e.Kind != "acquired" {
		t.Fatalf("the violation's step should hold the grant before it, got %v", e)
	}
}

// A fault injected at the cursor strikes there: the run up to then is the
// old one, the cursor lands on it, and the exported file replays headless
// to the same outcome with expectations that hold.
func TestPlayerInjectExportReplay(t *testing.T) {
	p := openPlayer(t, "gc-pause-wrong-delete", scenario.Options{})
	p.Seek(10)
	at := p.Now()
	before := eventsBefore(p, at)
	if err := p.Inject(faults.Fault{Kind: faults.ClockJump, Target: "A", By: 7 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if got := p.Injected(); len(got) != 1 || got[0].At != at || got[0].Target != "A" {
		t.Fatalf("injected %v, want one clock jump of A at %v", got, at)
	}
	if p.Now() != at {
		t.Fatalf("after inject the cursor is at %v, want %v", p.Now(), at)
	}
	if got := eventsBefore(p, at); len(before) == 0 || !reflect.DeepEqual(got, before) {
		t.Fatalf("the run before the fault changed:\n got %q\nwant %q", got, before)
	}
	data, err := p.Export()
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Load("live.yaml", data)
	if err != nil {
		t.Fatalf("exported scenario does not load: %v\n%s", err, data)
	}
	r, err := runner.New(f.Scenarios[0], scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, want := r.Run(), p.Final()
	if got.TraceHash != want.TraceHash || got.Metrics != want.Metrics || got.Events != want.Events || !got.OK {
		t.Fatalf("replay differs or fails its expectations:\n got %+v\nwant %+v", got, want)
	}
}

// eventsBefore are the trace events strictly before true time at, as
// text (a fault injected at a step's time strikes before that step).
func eventsBefore(p *Player, at time.Duration) []string {
	var out []string
	for _, e := range p.Events() {
		if time.Duration(e.At) < at {
			out = append(out, e.String())
		}
	}
	return out
}

// A fault refused by the validator, or one after the run is over, is not
// injected and the run is left as it was.
func TestPlayerInjectRefused(t *testing.T) {
	p := openPlayer(t, "gc-pause-wrong-delete", scenario.Options{})
	p.Seek(3)
	if err := p.Inject(faults.Fault{Kind: faults.Crash, Target: "no-such-process"}); err == nil {
		t.Fatal("a fault on a process that does not exist was injected")
	}
	p.at = p.s.Duration // the run's last event can come before its duration: put the cursor there
	err := p.Inject(faults.Fault{Kind: faults.Crash, Target: "redis-1"})
	if err == nil || !strings.Contains(err.Error(), "step back") {
		t.Fatalf("a fault at the end of the run: %v", err)
	}
	if len(p.Injected()) != 0 || len(p.Options().ExtraFaults) != 0 {
		t.Fatalf("refused faults were injected: %v", p.Injected())
	}
}

// countdownCtx is cancelled after its Err has been asked n times: the
// runner asks every CancelCheckEvery kernel events, so the run stops after
// a known amount of work, whatever the clock says.
type countdownCtx struct {
	context.Context
	n int
}

func (c *countdownCtx) Err() error {
	if c.n > 0 {
		c.n--
		return nil
	}
	return context.Canceled
}

// A build's context reaches into the run: the oracle stops midway, within
// CancelCheckEvery kernel events of the cancellation, and no Player is made.
func TestOpenStopsWhenCancelled(t *testing.T) {
	var progress atomic.Int64
	p, err := OpenContext(&countdownCtx{Context: context.Background(), n: 5}, scenariotest.Scenario(t, "counter-30x200"), scenario.Options{}, &progress)
	if !errors.Is(err, context.Canceled) || p != nil {
		t.Fatalf("cancelled open: a player was made: %t, error %v; want context.Canceled", p != nil, err)
	}
	// Five checks passed: at most 6 x CancelCheckEvery kernel events ran,
	// and each writes at most a few trace lines; the whole run has 64,791.
	if n := progress.Load(); n == 0 || n > 6*scenario.CancelCheckEvery*2 {
		t.Fatalf("the cancelled open played %d trace events", n)
	}
}

// The options' Context does not reach the Player: it outlives the build
// that made it, and its seeks run after that build's context is done.
func TestPlayerOutlivesItsBuildContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p, err := OpenContext(ctx, scenariotest.Scenario(t, "fair-fifo"), scenario.Options{Context: ctx}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cancel()
	p.Seek(p.Steps())
	if snap := p.Snapshot(); snap.Event != p.Total() {
		t.Fatalf("a seek after the build's context was cancelled stands at event %d, want %d", snap.Event, p.Total())
	}
	if p.Options().Context != nil {
		t.Fatal("the player keeps the build's context")
	}
}
