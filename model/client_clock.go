package model

import (
	"github.com/lockstep-sim/lockstep/model/tracefmt"
	"time"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/sim"
)

// A client's clocks, as lockstep models them (docs/scenario-format.md,
// "Additions"):
//
//   - Every timer and timeout of the client — Sleep (work, think, retry
//     delays), request timeouts, the watchdog's period — runs on its
//     monotonic clock, as Go's time.Sleep or Java's nanoTime-based
//     schedulers do. A drift (clock_drift) changes them, and a wake-up
//     already scheduled is moved at the instant of the drift; a jump
//     (clock_jump) does not.
//   - What the client believes about its lease — Lease.Start and Lease.Until,
//     Redlock's elapsed time and validity — is read from its wall clock, so
//     a jump moves it: a forward jump makes the lease look shorter, a jump
//     during a Redlock attempt is counted as elapsed time (unless the
//     recipe reads elapsed time on the monotonic clock, as Go clients do:
//     LockConfig.MonotonicElapsed).

// localTimer is a wake-up at a reading of the client's monotonic clock. It is
// its own kernel event handler, so arming one allocates nothing more; a
// caller that already holds a localTimer (an RPC's timeout) allocates nothing
// at all.
type localTimer struct {
	target time.Duration // monotonic reading at which it fires
	timer  sim.Timer
	h      sim.Handler // what it runs
	done   bool
	// held: armed by armHeld and not queued yet; its kernel event goes to
	// place (queueHeld).
	held  bool
	place sim.Reservation
}

// funcHandler runs a func as a Handler (a func in an interface costs no
// allocation).
type funcHandler func()

func (f funcHandler) Fire() { f() }

// afterLocal runs fn once d has passed on the client's monotonic clock.
func (c *Client) afterLocal(d time.Duration, fn func()) *localTimer {
	lt := &localTimer{h: funcHandler(fn)}
	c.armLocal(lt, d)
	return lt
}

// armLocal sets lt (with h filled in) to fire once d has passed on the
// client's monotonic clock.
func (c *Client) armLocal(lt *localTimer, d time.Duration) {
	now := c.w.Now()
	c.setTarget(lt, now, d)
	c.schedule(lt, now)
	c.track(lt)
}

// armHeld is armLocal for call's timeout, which its reply stops in
// nearly every run: the timeout takes its place in the kernel's order now
// (sim.Kernel.Reserve) but is queued only when queueHeld is called, which
// must happen as soon as it is no longer sure that something of the call
// (the request or the reply in flight) runs before the timeout is due
// (see rpcCall.holdTimeout). It decides so at once for the request just
// sent (sent: the network took it), as holdTimeout would: one call on
// every request's path instead of two.
func (c *Client) armHeld(call *rpcCall, sent bool) {
	lt := &call.timer
	now := c.w.Now()
	mono := c.clock.Mono(now)
	d := min(call.timeout, sim.Never-mono) // a huge timeout must not wrap into the past
	lt.target = mono + d
	lt.place = c.w.K.Reserve(c.clock.TrueAfter(now, d))
	lt.held, lt.timer = true, sim.Timer{}
	c.track(lt)
	// holdTimeout's test, for the request just sent (its inline copy: a
	// call of its own cost more than the test).
	w := c.w
	if sent && !w.queueTimeouts && lt.place.At()-now > w.Net.MaxDelay(c.Name, call.to) {
		return
	}
	lt.queueHeld(w.K)
}

// queueHeld queues a held timer at its reserved place (nothing if it is
// not held: queued already, stopped or fired).
func (lt *localTimer) queueHeld(k *sim.Kernel) {
	if lt.held {
		lt.held = false
		lt.timer = k.Queue(lt.place, lt)
	}
}

// setTarget sets the monotonic reading at which lt fires: d from now.
func (c *Client) setTarget(lt *localTimer, now, d time.Duration) {
	mono := c.clock.Mono(now)
	lt.target = mono + min(d, sim.Never-mono) // a huge d must not wrap into the past
}

// track lists lt among the client's timers, for a drift to move.
func (c *Client) track(lt *localTimer) {
	if len(c.timers) >= timerRoom { // drop finished and forgotten timers now and then
		c.dropFinished()
	}
	c.timers = append(c.timers, lt)
}

// dropFinished takes the finished and forgotten timers off the list. It
// is a call of its own so that its loop is not in the frame of armHeld,
// on the stack of every request.
//
//go:noinline
func (c *Client) dropFinished() {
	live := c.timers[:0]
	for _, x := range c.timers {
		if x != nil && !x.done {
			live = append(live, x)
		}
	}
	clear(c.timers[len(live):])
	c.timers = live
}

// timerRoom is how long a client's list of timers grows before armLocal
// drops the finished and forgotten ones; newClient makes it that big at
// once, since forgotten timers fill it in any run with a few requests.
const timerRoom = 16

// forgetTimer takes a finished timer off the list before its memory is
// reused (a pooled RPC's timeout, a sleep's), so that it is never listed
// twice. Only finished timers leave early, and SetClockRate skips those
// anyway. The timer is nearly always the newest (a request's caller
// forgets its timeout as soon as it wakes), and then the list just
// shrinks; otherwise it is searched from the end and its place left nil
// (track drops those with the finished ones), which keeps the order of
// the rest without a copy.
func (c *Client) forgetTimer(lt *localTimer) {
	last := len(c.timers) - 1
	if last >= 0 && c.timers[last] == lt {
		c.timers[last] = nil
		c.timers = c.timers[:last]
		return
	}
	for i := last - 1; i >= 0; i-- {
		if c.timers[i] == lt {
			c.timers[i] = nil
			return
		}
	}
}

func (c *Client) schedule(lt *localTimer, now time.Duration) {
	lt.timer = c.w.K.AfterHandler(c.clock.TrueAfter(now, lt.target-c.clock.Mono(now)), lt)
}

// Fire is the kernel event: the wake-up is due.
func (lt *localTimer) Fire() {
	lt.done = true
	lt.h.Fire()
}

// Stop cancels the wake-up. A held timer was never queued: there is
// nothing to take off the kernel's queue (nearly every request's timeout).
// Taking one off is a call of its own (unqueue), so that Stop is inlined
// into every request's call.
func (lt *localTimer) Stop() {
	held := lt.held
	lt.done, lt.held = true, false
	if !held {
		lt.unqueue()
	}
}

// unqueue is Stop of a queued timer.
//
//go:noinline
func (lt *localTimer) unqueue() { lt.timer.Stop() }

// JumpClock steps the client's wall clock by `by` now (fault clock_jump).
// Timers do not move; the client's belief about its lease does.
func (c *Client) JumpClock(by time.Duration) {
	now := c.w.Now()
	c.clock.Jump(now, by)
	c.w.feed(&judge.Event{Kind: judge.ClientClockJumped, Client: c.Name, Detail: &judge.Detail{By: by}})
	c.w.Tell(c.Name, "clock", "client-clock-now", sim.S("client", c.Name), sim.I("wall_ns", int64(c.clock.Wall(now))), sim.I("offset_ns", int64(c.clock.Offset(now))))
	if l := c.lease; l != nil && l.Until >= 0 {
		left := l.Until - c.clock.Wall(now)
		c.w.Tell(c.Name, "clock", "client-clock-lease", sim.S("client", c.Name), sim.S("key", c.w.Cfg.Lock.Key), sim.I("left_ns", int64(left)),
			sim.I("until_ns", int64(l.Until)), sim.I("before_ns", int64(left+by)))
	}
}

// SetClockRate makes the client's clock run rate× true speed from now on
// (fault clock_drift). Every pending wake-up is moved so that it still fires
// at its monotonic reading.
func (c *Client) SetClockRate(rate float64) {
	now := c.w.Now()
	c.clock.SetRate(now, rate)
	c.w.feed(&judge.Event{Kind: judge.ClientClockRate, Client: c.Name, Detail: &judge.Detail{Rate: rate}})
	moved := 0
	for _, lt := range c.timers {
		if lt == nil || lt.done {
			continue
		}
		lt.timer.Stop()
		lt.held = false // a held timer is queued now, where a queued one moves to
		c.schedule(lt, now)
		moved++
	}
	args := []sim.Arg{sim.S("client", c.Name), sim.S("rate", tracefmt.Rate(rate)), sim.I("second_ns", int64(c.clock.TrueAfter(now, time.Second)))}
	if moved > 0 {
		c.w.Tell(c.Name, "clock", "client-clock-rate-timers", append(args, sim.I("timers", int64(moved)))...)
	} else {
		c.w.Tell(c.Name, "clock", "client-clock-rate", args...)
	}
}
