package views

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/lockstep-sim/lockstep/scenario/player"
)

// tickMsg drives the play loop. gen is the generation it was armed in: a
// pause, seek or speed change bumps the clock's generation, so a tick still
// in flight from before is recognised as stale and dropped, and the loop
// never runs twice.
type tickMsg struct{ gen int }

func tick(gen int) tea.Cmd {
	return tea.Tick(frame, func(time.Time) tea.Msg { return tickMsg{gen} })
}

// clock is the one play loop of the run and compare views: it turns ticks
// × speed into a target true time and moves the players (one in the run
// view, two on one cursor in compare) there. What a view shows and when
// it says the run is over stay in the view.
type clock struct {
	playing bool
	speed   float64 // simulated seconds per wall second
	gen     int
}

func newClock() clock { return clock{speed: defaultSpeed} }

// rearm starts a new generation after the cursor jumped or the speed
// changed: ticks in flight are stale. It returns the next tick when
// playing.
func (c *clock) rearm() tea.Cmd {
	c.gen++
	return c.next()
}

// next arms the next tick of the current generation, when playing.
func (c *clock) next() tea.Cmd {
	if c.playing {
		return tick(c.gen)
	}
	return nil
}

// toggle plays or pauses.
func (c *clock) toggle() tea.Cmd {
	c.playing = !c.playing
	return c.rearm()
}

// stop pauses, when playing; the tick in flight dies.
func (c *clock) stop() {
	if c.playing {
		c.playing = false
		c.gen++
	}
}

// faster doubles the speed, up to maxSpeed.
func (c *clock) faster() tea.Cmd {
	c.speed = min(c.speed*2, maxSpeed)
	return c.rearm()
}

// slower halves the speed, down to minSpeed.
func (c *clock) slower() tea.Cmd {
	c.speed = max(c.speed/2, minSpeed)
	return c.rearm()
}

// advance handles a tick: false when it is stale (armed before a pause,
// seek or speed change). Otherwise every player goes to now + speed ×
// frame, clamped to the end of the longest of their runs, and advance
// returns that time. The caller redraws and calls next or stop.
func (c *clock) advance(msg tickMsg, now time.Duration, ps ...*player.Player) (time.Duration, bool) {
	if msg.gen != c.gen || !c.playing {
		return 0, false
	}
	var end time.Duration
	for _, p := range ps {
		end = max(end, p.End())
	}
	t := min(skipIdle(now+time.Duration(c.speed*float64(frame)), c.speed, ps), end)
	for _, p := range ps {
		p.SeekTime(t)
	}
	return t, true
}

// maxIdle is the longest stretch of wall time that play spends where
// nothing happens. A run plays to its duration, so after the last client
// is done (counter-30x200: half an hour) or inside a long wait, play would
// otherwise show a still screen for minutes at the chosen speed.
const maxIdle = 5 * time.Second

// skipIdle moves target t forward over idle time: when no player has a
// step before t and the earliest next step lies more than maxIdle of play
// ahead, play jumps to maxIdle before it, so the last seconds before the
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
	return max(t, next-time.Duration(speed*float64(maxIdle)))
}
