// Package play is the one play loop of the TUI's run and compare views: a
// clock that turns ticks × speed into a target true time and moves the
// players it drives (one in the run view, two on one cursor in compare)
// there, skipping idle stretches. What a view shows and when it says the
// run is over stay in the view.
package play

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/lockstep-sim/lockstep/scenario/player"
)

// Play loop timing: a tick every Frame; each advances the cursor by speed ×
// Frame of simulated time.
const (
	Frame        = 50 * time.Millisecond
	DefaultSpeed = 2.0      // simulated seconds per wall second
	MinSpeed     = 1.0 / 64 // 1/64 s per s
	MaxSpeed     = 4096.0
)

// Tick drives the play loop. Gen is the generation it was armed in: a
// pause, seek or speed change bumps the clock's generation, so a tick still
// in flight from before is recognised as stale and dropped, and the loop
// never runs twice.
type Tick struct{ Gen int }

func tick(gen int) tea.Cmd {
	return tea.Tick(Frame, func(time.Time) tea.Msg { return Tick{gen} })
}

// Clock is the play loop's state: playing or not, the speed, and the
// generation of the ticks it arms.
type Clock struct {
	playing bool
	speed   float64 // simulated seconds per wall second
	gen     int
}

// New is a paused clock at DefaultSpeed.
func New() Clock { return Clock{speed: DefaultSpeed} }

// Playing reports whether the clock plays.
func (c *Clock) Playing() bool { return c.playing }

// Speed is the simulated seconds per wall second.
func (c *Clock) Speed() float64 { return c.speed }

// Gen is the generation of the ticks the clock arms now (tests send
// Tick{Gen: c.Gen()} for the tick in flight).
func (c *Clock) Gen() int { return c.gen }

// Rearm starts a new generation after the cursor jumped or the speed
// changed: ticks in flight are stale. It returns the next tick when
// playing.
func (c *Clock) Rearm() tea.Cmd {
	c.gen++
	return c.Next()
}

// Next arms the next tick of the current generation, when playing.
func (c *Clock) Next() tea.Cmd {
	if c.playing {
		return tick(c.gen)
	}
	return nil
}

// Toggle plays or pauses.
func (c *Clock) Toggle() tea.Cmd {
	c.playing = !c.playing
	return c.Rearm()
}

// Stop pauses, when playing; the tick in flight dies.
func (c *Clock) Stop() {
	if c.playing {
		c.playing = false
		c.gen++
	}
}

// Faster doubles the speed, up to MaxSpeed.
func (c *Clock) Faster() tea.Cmd {
	c.speed = min(c.speed*2, MaxSpeed)
	return c.Rearm()
}

// Slower halves the speed, down to MinSpeed.
func (c *Clock) Slower() tea.Cmd {
	c.speed = max(c.speed/2, MinSpeed)
	return c.Rearm()
}

// Advance handles a tick: false when it is stale (armed before a pause,
// seek or speed change). Otherwise every player goes to now + speed ×
// Frame, clamped to the end of the longest of their runs, and advance
// returns that time. The caller redraws and calls next or stop.
func (c *Clock) Advance(msg Tick, now time.Duration, ps ...*player.Player) (time.Duration, bool) {
	if msg.Gen != c.gen || !c.playing {
		return 0, false
	}
	var end time.Duration
	for _, p := range ps {
		end = max(end, p.End())
	}
	t := min(skipIdle(now+time.Duration(c.speed*float64(Frame)), c.speed, ps), end)
	for _, p := range ps {
		p.SeekTime(t)
	}
	return t, true
}

// MaxIdle is the longest stretch of wall time that play spends where
// nothing happens. A run plays to its duration, so after the last client
// is done (counter-30x200: half an hour) or inside a long wait, play would
// otherwise show a still screen for minutes at the chosen speed.
const MaxIdle = 5 * time.Second

// skipIdle moves target t forward over idle time: when no player has a
// step before t and the earliest next step lies more than MaxIdle of play
// ahead, play jumps to MaxIdle before it, so the last seconds before the
// event still run at the chosen speed.
func skipIdle(t time.Duration, speed float64, ps []*player.Player) time.Duration {
	next, ok := time.Duration(0), false
	for _, p := range ps {
		if nt, more := p.NextTime(); more && (!ok || nt < next) {
			next, ok = nt, true
		}
	}
	if !ok || next <= t {
		return t
	}
	return max(t, next-time.Duration(speed*float64(MaxIdle)))
}
