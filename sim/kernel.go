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
	"container/heap"
	"time"
)

// Kernel owns virtual time and the event queue. It is not safe for use by
// several goroutines at once, but many Kernels may run in parallel.
type Kernel struct {
	now    time.Duration
	seq    uint64
	queue  eventQueue
	steps  int
	seed   uint64
	trace  *Trace
	procs  []*Proc
	closed bool
}

// NewKernel returns a kernel at time zero whose random streams derive from seed.
func NewKernel(seed uint64) *Kernel {
	return &Kernel{seed: seed, trace: newTrace()}
}

// Now is the true simulated time since the run began.
func (k *Kernel) Now() time.Duration { return k.now }

// Steps is how many events have run.
func (k *Kernel) Steps() int { return k.steps }

// Seed is the seed the kernel's random streams derive from.
func (k *Kernel) Seed() uint64 { return k.seed }

// Trace is the kernel's event trace.
func (k *Kernel) Trace() *Trace { return k.trace }

// Timer is a handle on a scheduled event; Stop cancels it.
type Timer struct {
	k  *Kernel
	ev *event
}

// Stop cancels the event if it has not run yet. It reports whether it did.
// The event leaves the queue at once: every request arms a timeout that is
// almost always stopped, and dead entries would otherwise deepen the heap.
func (t Timer) Stop() bool {
	if t.ev == nil || t.ev.done {
		return false
	}
	t.ev.done = true
	t.ev.fn = nil
	if q := t.k.queue; t.ev.idx >= 0 && t.ev.idx < len(q) && q[t.ev.idx] == t.ev {
		heap.Remove(&t.k.queue, t.ev.idx)
	}
	return true
}

// At schedules fn to run at true time t (or now, if t is in the past).
// Events at the same time run in the order they were scheduled.
func (k *Kernel) At(t time.Duration, fn func()) Timer {
	if t < k.now {
		t = k.now
	}
	k.seq++
	ev := &event{at: t, seq: k.seq, fn: fn}
	heap.Push(&k.queue, ev)
	return Timer{k, ev}
}

// After schedules fn to run d after now.
func (k *Kernel) After(d time.Duration, fn func()) Timer { return k.At(k.now+d, fn) }

// Next is the time of the next pending event, and false when none is left.
func (k *Kernel) Next() (time.Duration, bool) {
	for k.queue.Len() > 0 {
		ev := k.queue[0]
		if !ev.done {
			return ev.at, true
		}
		heap.Pop(&k.queue)
	}
	return 0, false
}

// Step runs the next event. It reports false when the queue is empty.
func (k *Kernel) Step() bool {
	for k.queue.Len() > 0 {
		ev := heap.Pop(&k.queue).(*event)
		if ev.done {
			continue
		}
		ev.done = true
		k.now = ev.at
		k.steps++
		fn := ev.fn
		ev.fn = nil
		fn()
		return true
	}
	return false
}

// RunUntil runs events up to and including time t, then sets the clock to t.
func (k *Kernel) RunUntil(t time.Duration) {
	for {
		at, ok := k.Next()
		if !ok || at > t {
			break
		}
		k.Step()
	}
	if t > k.now {
		k.now = t
	}
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
	k.queue = nil
}

type event struct {
	at   time.Duration
	seq  uint64
	fn   func()
	done bool
	idx  int
}

// eventQueue is a min-heap on (at, seq): ties break by scheduling order,
// which is what makes equal-time events deterministic.
type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i]; q[i].idx = i; q[j].idx = j }
func (q *eventQueue) Push(x any)   { e := x.(*event); e.idx = len(*q); *q = append(*q, e) }
func (q *eventQueue) Pop() any {
	old := *q
	n := len(old)
	e := old[n-1]
	old[n-1] = nil
	e.idx = -1
	*q = old[:n-1]
	return e
}
