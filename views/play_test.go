package views

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
)

// The clock moves every player it drives to one target, now + speed ×
// frame, clamped to the end of the longest run; a tick from an older
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
	c := newClock()
	if _, ok := c.advance(tickMsg{gen: c.gen}, 0, ps...); ok {
		t.Fatal("a tick while paused advanced")
	}
	if c.toggle() == nil || !c.playing {
		t.Fatal("toggle should start playing and arm a tick")
	}
	stale := c.gen
	c.faster()
	if _, ok := c.advance(tickMsg{gen: stale}, 0, ps...); ok {
		t.Fatal("a tick from before the speed change advanced")
	}
	step := time.Duration(c.speed * float64(frame))
	at, ok := c.advance(tickMsg{gen: c.gen}, 3*time.Second, ps...)
	if !ok || at != 3*time.Second+step {
		t.Fatalf("tick from 3s at %v×: at %v %v, want %v", c.speed, at, ok, 3*time.Second+step)
	}
	for i, p := range ps {
		if p.Now() != at {
			t.Fatalf("side %d at %v, target %v", i, p.Now(), at)
		}
	}
	end := max(ps[0].End(), ps[1].End())
	if at, _ := c.advance(tickMsg{gen: c.gen}, end-time.Millisecond, ps...); at != end {
		t.Fatalf("a tick past the end goes to %v, want the longest run's end %v", at, end)
	}
	c.stop()
	if c.playing || c.next() != nil {
		t.Fatal("stop should pause and arm nothing")
	}
}

// Play in the compare view runs both sides on the shared cursor to the
// end of the longer run, then stops by itself.
func TestComparePlaysToTheEnd(t *testing.T) {
	m := newModel(t, bundled(t), Config{Open: "gc-pause-wrong-delete", Compare: [2]string{"set-del", "lua-release"}}, 140, 40)
	c := m.Compare()
	if press(m, "space") == nil || !c.clock.playing {
		t.Fatal("space should start the compare view's play loop")
	}
	for range 40 {
		press(m, "]") // full speed: fewer ticks
	}
	ticks := 0
	for ; ticks < 100000 && c.clock.playing; ticks++ {
		before := c.Now()
		m.Update(tickMsg{gen: c.clock.gen})
		if c.clock.playing && c.Now() <= before {
			t.Fatalf("tick %d: the cursor did not move from %v", ticks, before)
		}
		for i, s := range c.sides {
			if s.Now() != min(c.Now(), s.End()) {
				t.Fatalf("tick %d: side %d at %v, shared cursor %v", ticks, i, s.Now(), c.Now())
			}
		}
	}
	if c.clock.playing || c.Now() != c.end() {
		t.Fatalf("after %d ticks: playing %v, cursor %v, end %v", ticks, c.clock.playing, c.Now(), c.end())
	}
}

// In the compare view n goes to the earliest next step of either side and
// b to the latest step of either side before the cursor, so b retraces n's
// path exactly; past either end the status says why nothing moved.
func TestCompareBackRetracesStep(t *testing.T) {
	m := newModel(t, bundled(t), Config{Open: "gc-pause-wrong-delete", Compare: [2]string{"set-del", "lua-release"}}, 140, 40)
	c := m.Compare()
	path := []time.Duration{c.Now()}
	for range 60 {
		press(m, "n")
		path = append(path, c.Now())
	}
	for i := len(path) - 2; i >= 0; i-- {
		press(m, "b")
		if c.Now() != path[i] {
			t.Fatalf("b number %d: at %v, n had been at %v", len(path)-1-i, c.Now(), path[i])
		}
	}
	press(m, "b")
	if c.Now() != 0 || c.status != "at the start" {
		t.Fatalf("b at the start: at %v, status %q", c.Now(), c.status)
	}
	for i := 0; i < 10000; i++ {
		if press(m, "n"); c.status != "" {
			break
		}
	}
	if c.status != "both runs are over" || !c.sides[0].AtEnd() || !c.sides[1].AtEnd() {
		t.Fatalf("n past the end: status %q", c.status)
	}
}

// Play crosses idle time in one jump: at most maxIdle of play before the
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
	c := newClock()
	c.toggle()
	p.Seek(p.Steps() - 1)
	last := p.Now()
	if p.End()-last <= time.Duration(c.speed*float64(maxIdle)) {
		t.Fatalf("the scenario no longer has an idle tail: last step at %v, end %v", last, p.End())
	}
	at, _ := c.advance(tickMsg{gen: c.gen}, last, p)
	lead := time.Duration(c.speed * float64(maxIdle))
	if at != p.End()-lead {
		t.Fatalf("one tick from the last step (%v) went to %v, want %v (end %v minus %v of play)", last, at, p.End()-lead, p.End(), lead)
	}
	ticks := 0
	for ; !p.AtEnd() && ticks < 1000; ticks++ {
		at, _ = c.advance(tickMsg{gen: c.gen}, at, p)
	}
	if want := int(maxIdle / frame); ticks != want {
		t.Fatalf("the last stretch took %d ticks, want %d (maxIdle of play)", ticks, want)
	}
}
