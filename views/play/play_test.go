package play

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
)

// bundled loads views' frozen copy of the bundled scenarios.
func bundled(t testing.TB) *scenario.File {
	t.Helper()
	f, err := scenario.LoadFile("../testdata/scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The clock moves every player it drives to one target, now + speed ×
// Frame, clamped to the end of the longest run; a tick from an older
// generation, or one that arrives while paused, moves nothing.
func TestClockDrivesPlayersToOneTarget(t *testing.T) {
	f := bundled(t)
	var ps []*player.Player
	for _, strat := range []string{"set-del", "lua-release"} {
		s, err := f.Find("gc-pause-wrong-delete")
		if err != nil {
			t.Fatal(err)
		}
		p, err := player.Open(s, scenario.Options{Strategy: strat})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		ps = append(ps, p)
	}
	c := New()
	if _, ok := c.Advance(Tick{Gen: c.gen}, 0, ps...); ok {
		t.Fatal("a tick while paused advanced")
	}
	if c.Toggle() == nil || !c.playing {
		t.Fatal("toggle should start playing and arm a tick")
	}
	stale := c.gen
	c.Faster()
	if _, ok := c.Advance(Tick{Gen: stale}, 0, ps...); ok {
		t.Fatal("a tick from before the speed change advanced")
	}
	step := time.Duration(c.speed * float64(Frame))
	at, ok := c.Advance(Tick{Gen: c.gen}, 3*time.Second, ps...)
	if !ok || at != 3*time.Second+step {
		t.Fatalf("tick from 3s at %v×: at %v %v, want %v", c.speed, at, ok, 3*time.Second+step)
	}
	for i, p := range ps {
		if p.Now() != at {
			t.Fatalf("side %d at %v, target %v", i, p.Now(), at)
		}
	}
	end := max(ps[0].End(), ps[1].End())
	if at, _ := c.Advance(Tick{Gen: c.gen}, end-time.Millisecond, ps...); at != end {
		t.Fatalf("a tick past the end goes to %v, want the longest run's end %v", at, end)
	}
	c.Stop()
	if c.playing || c.Next() != nil {
		t.Fatal("stop should pause and arm nothing")
	}
}

// Play crosses idle time in one jump: at most MaxIdle of play before the
// next step. gc-pause-wrong-delete plays to its duration long after the
// last client is done; from the last step one tick reaches the end.
func TestPlaySkipsIdleTime(t *testing.T) {
	s, err := bundled(t).Find("gc-pause-wrong-delete")
	if err != nil {
		t.Fatal(err)
	}
	p, err := player.Open(s, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	c := New()
	c.Toggle()
	p.Seek(p.Steps() - 1)
	last := p.Now()
	if p.End()-last <= time.Duration(c.speed*float64(MaxIdle)) {
		t.Fatalf("the scenario no longer has an idle tail: last step at %v, end %v", last, p.End())
	}
	at, _ := c.Advance(Tick{Gen: c.gen}, last, p)
	lead := time.Duration(c.speed * float64(MaxIdle))
	if at != p.End()-lead {
		t.Fatalf("one tick from the last step (%v) went to %v, want %v (end %v minus %v of play)", last, at, p.End()-lead, p.End(), lead)
	}
	ticks := 0
	for ; !p.AtEnd() && ticks < 1000; ticks++ {
		at, _ = c.Advance(Tick{Gen: c.gen}, at, p)
	}
	if want := int(MaxIdle / Frame); ticks != want {
		t.Fatalf("the last stretch took %d ticks, want %d (MaxIdle of play)", ticks, want)
	}
}
