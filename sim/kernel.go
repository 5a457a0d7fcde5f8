// Package sim is lockstep's discrete-event kernel: virtual time, an event
// queue ordered by (time, sequence), seeded random streams, cooperative
// processes that read as straight-line code, a network of links, and a typed
// trace. It knows nothing of Redis.
//
// Determinism is the kernel's first law: the same inputs and seed give the
// same sequence of events and the same trace, whatever the machine or
// GOMAXPROCS. Exactly one piece of simulation code runs at any moment: the
// kernel's own event callbacks, or the one process it has resumed.
package sim

import (
	"math"
	"slices"
	"time"
)

// Kernel owns virtual time and the event queue. It is not safe for use by
// several goroutines at once, but many Kernels may run in parallel.
type Kernel struct {
	now    time.Duration
	seq    uint64
	queue  eventQueue
	free   FreeList[event] // events that ran or were stopped, for reuse
	steps  int
	budget int  // Step refuses to run more events than this (SetBudget)
	spent  bool // Step refused an event for the budget
	seed   uint64
	trace  *Trace
	buf    []byte // reused by Emit to format a message
	procs  []*Proc
	closed bool

	// The bounds of the run in progress (run), which every loop over the
	// events obeys, the kernel's own and each driving Proc's (drive.go).
	until time.Duration // events due by then may run
	left  int           // how many more events may run
	// How many Procs run the kernel's loop themselves while they wait
	// (drive.go): the chain, each blocked in the wake of the next; cut is
	// the lowest place in it of a Proc woken or killed meanwhile (noCut:
	// none), which those above it hand control back down to, and woke the
	// lowest of a Proc woken, which a wake after it may not run before it.
	depth int
	cut   int
	woke  int
	// inProc is whether a Proc's own code runs now; false while the
	// kernel's code does (an event's handler, in any loop). A bool, not
	// the Proc: a pointer's every store pays the write barrier's test.
	inProc bool
}

// NewKernel returns a kernel at time zero whose random streams derive from seed.
func NewKernel(seed uint64) *Kernel {
	return &Kernel{seed: seed, trace: newTrace(), budget: math.MaxInt, cut: noCut, woke: noCut}
}

// QueueRoom makes room for n events in each heap of the queue, for a
// caller that knows about how many will wait at once (model.NewWorld: a
// few per client and node). A heap grows in a push, often deep in a
// handler a simulated thread's loop runs (drive.go), where growslice's
// frames could outgrow the stack the thread has (it would be copied whole).
func (k *Kernel) QueueRoom(n int) {
	q := &k.queue
	q.timers = slices.Grow(q.timers, n)
	q.msgs = slices.Grow(q.msgs, n)
}

// SetBudget bounds the events the kernel will ever run: once Steps reaches
// n, Step and RunUntil run nothing more and Exhausted reports true. Every
// loop that drives the kernel goes through Step, so a world that never stops
// scheduling work (a zero-latency network with a 1ns timer, a billion
// retries without delay) ends after n events instead of hanging. n <= 0
// means no bound.
func (k *Kernel) SetBudget(n int) {
	if n <= 0 {
		n = math.MaxInt
	}
	k.budget = n
}

// Exhausted reports whether Step has refused an event for the budget.
func (k *Kernel) Exhausted() bool { return k.spent }

// Now is the true simulated time since the run began.
func (k *Kernel) Now() time.Duration { return k.now }

// Steps is how many events have run.
func (k *Kernel) Steps() int { return k.steps }

// Seed is the seed the kernel's random streams derive from.
func (k *Kernel) Seed() uint64 { return k.seed }

// Trace is the kernel's event trace.
func (k *Kernel) Trace() *Trace { return k.trace }

// Handler is an event's action as a value. Scheduling a pointer to a struct
// that implements it (AtHandler) allocates nothing, where a closure would:
// the RPC path schedules three events per request, so it uses handlers.
type Handler interface{ Fire() }

// Timer is a handle on a scheduled event; Stop cancels it.
type Timer struct {
	k   *Kernel
	ev  *event
	seq uint64 // the event's seq when scheduled: events are reused, seqs are not
}

// Stop cancels the event if it has not run yet. It reports whether it did.
// The event leaves the queue at once: a drift moves timers by stopping
// and queueing them again, and dead entries would deepen the heap.
func (t Timer) Stop() bool {
	return t.ev != nil && t.ev.seq == t.seq && t.k.stop(t.ev) // else never scheduled, or reused since
}

// stop takes ev out of the queue and frees it, unless it already ran or
// was stopped. It is Stop's call of its own, so that Stop is inlined into
// its callers: most Stops find a Timer that was never queued (a request's
// timeout, held until its reply came: Reserve), and then Stop is one test.
//
//go:noinline
func (k *Kernel) stop(ev *event) bool {
	if ev.idx == notQueued {
		return false
	}
	k.queue.remove(ev)
	k.release(ev)
	return true
}

// At schedules fn to run at true time t (or now, if t is in the past).
// Events at the same time run in the order they were scheduled.
func (k *Kernel) At(t time.Duration, fn func()) Timer {
	ev := k.schedule(t)
	ev.h = funcHandler(fn)
	return Timer{k, ev, ev.seq}
}

// AtHandler is At for a Handler: h.Fire() runs at true time t.
func (k *Kernel) AtHandler(t time.Duration, h Handler) Timer {
	ev := k.schedule(t)
	ev.h = h
	return Timer{k, ev, ev.seq}
}

// After schedules fn to run d after now (at Never if that is later).
func (k *Kernel) After(d time.Duration, fn func()) Timer { return k.At(k.later(d), fn) }

// AfterHandler schedules h.Fire() to run d after now (at Never if that is later).
func (k *Kernel) AfterHandler(d time.Duration, h Handler) Timer { return k.AtHandler(k.later(d), h) }

// later is now+d, saturated at Never: a huge d must not wrap around into
// the past and run at once.
func (k *Kernel) later(d time.Duration) time.Duration {
	if d > Never-k.now {
		return Never
	}
	return k.now + d
}

// place is the place in the order of an event d after now (now for a
// negative d, Never if that is later): its time, and the next sequence
// number, which it takes. Reserve and a message's send queue at it; it is
// small enough to be inlined into both.
func (k *Kernel) place(d time.Duration) (time.Duration, uint64) {
	k.seq++
	return k.later(max(d, 0)), k.seq
}

// schedule queues a fresh event at t (or now) with the next sequence number.
func (k *Kernel) schedule(t time.Duration) *event {
	if t < k.now {
		t = k.now
	}
	k.seq++
	ev := k.free.Get()
	ev.seq, ev.net = k.seq, nil
	k.queue.push(entry{t, k.seq, ev})
	return ev
}

// release returns an event that left the queue to the free list. Its seq
// stays until reuse, so a Timer still holding it sees idx == notQueued,
// and after reuse sees a different seq. Its other fields stay too: every
// Get sets them again, and clearing them would be stores an event for
// nothing (what they reference stays reachable only until that Get, and
// a kernel keeps few free events).
func (k *Kernel) release(ev *event) {
	if !ev.kept { // an Envelope's is its sender's (SendIn)
		k.free.Put(ev)
	}
}

// Pending is how many events are queued.
func (k *Kernel) Pending() int { return k.queue.Len() }

// Next is the time of the next pending event, and false when none is left.
func (k *Kernel) Next() (time.Duration, bool) {
	if e := k.queue.first(); e != nil {
		return e.at, true
	}
	return 0, false
}

// Step runs the next event. It reports false when the queue is empty or
// the budget is spent (then Exhausted is true).
func (k *Kernel) Step() bool {
	before := k.steps
	k.run(math.MaxInt64, 1)
	return k.steps != before
}

// RunUntil runs events up to and including time t, then sets the clock to
// t. It stops early, with the clock where the last event left it, when the
// budget is spent.
func (k *Kernel) RunUntil(t time.Duration) {
	if !k.run(t, math.MaxInt) && t > k.now {
		k.now = t
	}
}

// RunFor runs the events due by t, n at most, in order, and reports whether
// the budget refused one (Exhausted is then true). A caller that checks
// something every n events (the runner's cancellation) runs them so
// rather than by Step, one at a time: within a run the simulated threads
// drive the kernel while they wait (drive.go), which saves two coroutine
// switches a wake.
func (k *Kernel) RunFor(t time.Duration, n int) (refused bool) { return k.run(t, n) }

// run runs the events due by t, n at most, in order, and reports whether
// it stopped because the budget refused one. The bounds are the kernel's
// (until, left), so that a Proc that runs the loop while it waits (park)
// obeys them too; left is 0 again once the run is over, so that no Proc
// drives outside a run (a harness's resume between two Steps). A run is
// not to be started from an event's handler: it would end the outer one.
func (k *Kernel) run(t time.Duration, n int) (refused bool) {
	k.until, k.left = t, n
	refused = k.loop(-1)
	k.left = 0
	return refused
}

// loop runs the events due within the run's bounds, in order, for the
// kernel itself (i = -1) or for the Proc at place i in the chain, which
// stops as soon as it or a Proc under it has been woken or killed (cut <= i), and
// reports whether the budget refused an event. Every handler is called
// from here, without a frame between: every coroutine switch leaves the
// processor's return predictions wrong, and each frame on the way back
// from a wake is one more mispredicted return.
func (k *Kernel) loop(i int) (refused bool) {
	for k.left > 0 && k.cut > i {
		f := k.queue.first()
		if f == nil || f.at > k.until {
			return false
		}
		if k.steps >= k.budget {
			k.spent = true
			return true
		}
		e := k.queue.pop(f)
		ev := e.ev
		ev.idx = notQueued // a Stop from now on finds it gone
		k.now = e.at
		k.steps++
		k.left--
		if net := ev.net; net != nil && net.cut && net.cutInFlight(ev) {
			continue
		}
		h := ev.h
		k.release(ev) // before running: what it schedules may reuse it
		h.Fire()
	}
	return false
}

// Close ends every process still alive so that no goroutine outlives the
// kernel. The kernel must not be used afterwards.
func (k *Kernel) Close() {
	if k.closed {
		return
	}
	k.closed = true
	for _, p := range k.procs {
		p.kill()
	}
	k.queue = eventQueue{}
	k.free.Reset()
	k.depth, k.cut, k.woke, k.inProc = 0, noCut, noCut, false
}
