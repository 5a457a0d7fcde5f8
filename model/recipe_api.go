package model

import (
	"math/rand/v2"
	"time"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/sim"
)

// The recipe API: what a Strategy written outside this package (the
// Redlock family, model/redlock; the single-instance recipes) needs of the
// client it runs on, beyond the Thread's Call, CallTimeout, CallAll,
// Sleep, Wall and Mono. It is small on purpose: a recipe calls nodes,
// sleeps and reads its clocks, writes trace lines, and reads its lease;
// the RPC machinery, the pools and the timers stay here.

// Master is the node this thread's client believes is shard i's master
// (it follows a failover once it can reach the new one, World.masterFor).
func (t *Thread) Master(i int) *Node { return t.master(i) }

// Masters is Master of every shard, in shard order. The list is the
// thread's own storage, reused by its next call: a thread runs one round
// at a time, and a round must not keep it past its end.
func (t *Thread) Masters() []*Node {
	if cap(t.nodes) < len(t.c.w.Shards) { // sized once, not grown shard by shard
		t.nodes = make([]*Node, 0, len(t.c.w.Shards))
	}
	out := t.nodes[:0]
	for i := range t.c.w.Shards {
		out = append(out, t.master(i))
	}
	t.nodes = out
	return out
}

// Rand is the client's seeded stream for its retry delays (retry/NAME).
func (t *Thread) Rand() *rand.Rand { return t.c.rng }

// Tell adds a trace line of message id from the thread's client (see
// World.Tell).
func (t *Thread) Tell(kind, id string, args ...sim.Arg) { t.c.w.Tell(t.c.Name, kind, id, args...) }

// Deadlock tells that the thread's client and others wait for each
// other's keys (cycle says who for which in English, model/keyhold): the
// trace line of message id with the cycle and args (what its templates
// say it from), and the judge's Deadlock event.
func (t *Thread) Deadlock(id, cycle string, args ...sim.Arg) {
	t.Tell("deadlock", id, append([]sim.Arg{sim.S("cycle", cycle)}, args...)...)
	t.c.w.feed(&judge.Event{Kind: judge.Deadlock, Client: t.c.Name, Note: cycle})
}

// Tell adds a trace line of message id from the client (see World.Tell).
func (c *Client) Tell(kind, id string, args ...sim.Arg) { c.w.Tell(c.Name, kind, id, args...) }

// World is the world the client lives in.
func (c *Client) World() *World { return c.w }

// Line starts a trace message in the world's reused buffer, for lines
// written on every command or reply; SayLine records it. Nothing may keep
// the buffer past the SayLine.
func (w *World) Line() []byte { return w.line() }

// SayLine records a message built from Line with its message id and
// arguments (docs/trace-format.md lists the ids).
func (w *World) SayLine(proc, kind, id string, b []byte, args ...sim.Arg) {
	w.sayLine(proc, kind, id, b, args...)
}

// Waker ends a Thread.SleepWakeable early.
type Waker struct{ wake func() }

// Wake ends the sleep now. Call it at most once, and only while the
// sleep lasts.
func (k *Waker) Wake() { k.wake() }

// SleepWakeable is Sleep for d by the client's clock that another thread
// may end early through k.
func (t *Thread) SleepWakeable(d time.Duration, k *Waker) {
	tk := t.p.ArmShared() // another thread may end it
	timer := t.c.afterLocal(d, func() { tk.Wake(nil) })
	k.wake = func() { timer.Stop(); tk.Wake(nil) }
	t.p.Park()
}

// WorkRunner is a Strategy that runs the work of a critical section
// itself, to be able to end it early: Redlock's watchdog.abort_work
// (node-redlock's using(), model/redlock/using.go). Work takes d by the
// client's clock and reports false when it was aborted.
type WorkRunner interface {
	Work(t *Thread, d time.Duration) bool
}

// workFor is the work's d of time: a plain Sleep, or with abort_work the
// strategy's own abortable work. It reports false when the work was
// aborted. No work (d <= 0, the counter test's) is inlined: no call.
func (c *Client) workFor(t *Thread, d time.Duration) bool {
	return d <= 0 || c.workSleep(t, d)
}

// workSleep is workFor of some work.
func (c *Client) workSleep(t *Thread, d time.Duration) bool {
	if wd := c.w.Cfg.Lock.Watchdog; wd == nil || !wd.AbortWork {
		t.Sleep(d)
		return true
	}
	if wr, ok := c.w.strategy.(WorkRunner); ok {
		return wr.Work(t, d)
	}
	t.Sleep(d)
	return true
}
