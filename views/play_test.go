package views

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/views/play"
)

// Play in the compare view runs both sides on the shared cursor to the
// end of the longer run, then stops by itself.
func TestComparePlaysToTheEnd(t *testing.T) {
	m := newModel(t, bundled(t), Config{Open: "gc-pause-wrong-delete", Compare: [2]string{"set-del", "lua-release"}}, 140, 40)
	c := m.Compare()
	if press(m, "space") == nil || !c.clock.Playing() {
		t.Fatal("space should start the compare view's play loop")
	}
	for range 40 {
		press(m, "]") // full speed: fewer ticks
	}
	ticks := 0
	for ; ticks < 100000 && c.clock.Playing(); ticks++ {
		before := c.Now()
		m.Update(play.Tick{Gen: c.clock.Gen()})
		if c.clock.Playing() && c.Now() <= before {
			t.Fatalf("tick %d: the cursor did not move from %v", ticks, before)
		}
		for i, s := range c.sides {
			if s.Now() != min(c.Now(), s.End()) {
				t.Fatalf("tick %d: side %d at %v, shared cursor %v", ticks, i, s.Now(), c.Now())
			}
		}
	}
	if c.clock.Playing() || c.Now() != c.end() {
		t.Fatalf("after %d ticks: playing %v, cursor %v, end %v", ticks, c.clock.Playing(), c.Now(), c.end())
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
