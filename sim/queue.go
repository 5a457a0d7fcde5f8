package sim

import (
	"math/bits"
	"time"
)

type event struct {
	seq uint64  // the seq it was queued with, for its Timer's check
	h   Handler // the action (a func is a funcHandler)
	idx int     // position in its heap, atNext, or notQueued once it ran or was stopped
	// A message's delivery (Network.send) is an event too, with its
	// network and its ends: one object per message, run without a call
	// of its own, and checked against the partitions on arrival. net is
	// nil for every other event.
	net      *Network
	from, to string
	// kept: the event is an Envelope's, which its sender keeps (SendIn),
	// not the kernel's free list's.
	kept bool
}

// funcHandler is a func as a Handler: At and Send keep one kind of action,
// so the kernel's loop reads one field and makes one kind of call. A func
// is a pointer, so the conversion allocates nothing.
type funcHandler func()

func (f funcHandler) Fire() { f() }

// entry is a queued event as the heap holds it: the key (at, seq) beside
// the pointer, so that ordering the heap reads only the heap's own array
// and never chases a pointer into an event.
type entry struct {
	at  time.Duration
	seq uint64
	ev  *event
}

// eventQueue is the kernel's events in (at, seq) order: ties break by
// scheduling order, which is what makes equal-time events deterministic.
// (at, seq) is a total order (seqs are unique), so how the queue is built
// cannot change which event comes out next.
//
// The earliest event is often kept apart, in next: most events schedule
// the one that runs right after them (a request's arrival sends the
// reply, the reply sends the next request; in counter-30x200-loopback
// 43,394 of 52,683 pushes go to the front), and such an event then goes
// in and out without a sift. The others wait in two heaps, one for the
// messages in flight and one for every other event, and the earlier of
// their roots comes next: a message's delay is a few link latencies, a
// timer's is anything (a 50ms retry sleep, a timeout of seconds), and a
// message that lands after the first timer would otherwise sift through
// all of them (in counter-30x200-loopback ~7,700 messages a run, through
// the ~29 sleeping clients; in their own heap they meet one or two).
// Invariant: next.ev == nil, or next is before every entry of both heaps.
type eventQueue struct {
	next   entry     // the earliest event; next.ev == nil: none kept apart
	timers eventHeap // the other events that are not messages
	msgs   eventHeap // the other messages in flight (event.net != nil)
}

// An event's idx when it is not in a heap: kept in next, or not queued
// (it ran or was stopped). A heap's indexes are >= 0.
const (
	atNext    = -2
	notQueued = -1
)

// Len is how many events are queued.
func (q *eventQueue) Len() int {
	n := len(q.timers) + len(q.msgs)
	if q.next.ev != nil {
		n++
	}
	return n
}

// heapOf is the heap ev waits in when it is not kept in next.
func (q *eventQueue) heapOf(ev *event) *eventHeap {
	if ev.net != nil {
		return &q.msgs
	}
	return &q.timers
}

// first is the earliest entry, nil when the queue is empty.
func (q *eventQueue) first() *entry {
	if q.next.ev != nil {
		return &q.next
	}
	return q.firstHeld()
}

// firstHeld is the earlier of the two heaps' roots, nil when both are empty.
func (q *eventQueue) firstHeld() *entry {
	switch t, m := q.timers, q.msgs; {
	case len(m) == 0:
		if len(t) == 0 {
			return nil
		}
		return &t[0]
	case len(t) == 0 || m[0].before(&t[0]):
		return &m[0]
	default:
		return &t[0]
	}
}

// push queues e: in next if it runs before everything queued, in its heap
// otherwise (an earlier event kept in next moves to its own heap's root).
func (q *eventQueue) push(e entry) {
	switch {
	case q.next.ev != nil:
		if !e.before(&q.next) {
			q.heapOf(e.ev).push(e)
			return
		}
		q.heapOf(q.next.ev).push(q.next)
	case q.timers.rootBefore(&e) || q.msgs.rootBefore(&e):
		q.heapOf(e.ev).push(e)
		return
	}
	q.next = e
	e.ev.idx = atNext
}

// pop removes and returns f, the earliest entry, as first returned it.
// It leaves the event's idx to its caller (Kernel.run), which keeps pop
// small enough to be inlined into the kernel's loop: a call fewer an event.
func (q *eventQueue) pop(f *entry) entry {
	if f != &q.next {
		return q.popHeld(f)
	}
	e := q.next
	q.next.ev = nil // none kept apart: at and seq are not read again
	return e
}

// popHeld removes and returns f, the root of one of the heaps.
func (q *eventQueue) popHeld(f *entry) entry {
	if len(q.msgs) != 0 && f == &q.msgs[0] {
		return q.msgs.pop()
	}
	return q.timers.pop()
}

// remove takes out the queued event ev.
func (q *eventQueue) remove(ev *event) {
	if ev.idx == atNext {
		q.next = entry{}
		ev.idx = notQueued
		return
	}
	q.heapOf(ev).remove(ev.idx)
}

// eventHeap is a 4-ary min-heap on (at, seq). Four children per node halve
// the depth of a binary heap, and the methods work on entries directly,
// without container/heap's interface calls.
type eventHeap []entry

// before reports whether a comes first: (at, seq) compared as one 128-bit
// number, a subtraction whose borrow is the answer. A heap's comparisons
// are coin tosses to a branch predictor (a quarter of a run's mispredicted
// branches were the heap's), so before has no branch, and min4 turns its
// answers into conditional moves. The times are never negative (schedule
// clamps them to now >= 0), so comparing them unsigned is comparing them.
func (a *entry) before(b *entry) bool {
	_, borrow := bits.Sub64(a.seq, b.seq, 0)
	_, borrow = bits.Sub64(uint64(a.at), uint64(b.at), borrow)
	return borrow != 0
}

// rootBefore reports whether the heap's first entry comes before e.
func (q eventHeap) rootBefore(e *entry) bool { return len(q) != 0 && q[0].before(e) }

// min4 is the index of the first of the four entries from c on, found as
// a tournament: two independent comparisons, then their winners'.
func (q eventHeap) min4(c int) int {
	q = q[c : c+4]
	a := bit(q[1].before(&q[0]))
	b := 2 + bit(q[3].before(&q[2]))
	if q[b].before(&q[a]) {
		a = b
	}
	return c + a
}

// bit is 1 for true, 0 for false (a SETcc, not a branch).
func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// push adds e as a leaf and lifts it. Most entries pushed here stay where
// they land (a request's timeout is later than everything queued), so the
// first comparison with the parent is made before calling up.
func (q *eventHeap) push(e entry) {
	i := len(*q)
	*q = append(*q, e)
	if i == 0 || !e.before(&(*q)[(i-1)/4]) {
		e.ev.idx = i
		return
	}
	q.up(i, e)
}

// pop removes and returns the first entry.
func (q *eventHeap) pop() entry {
	h := *q
	e := h[0]
	n := len(h) - 1
	last := h[n]
	h[n] = entry{}
	*q = h[:n]
	if n > 0 {
		h[0] = last
		q.down(0)
	}
	return e // its idx is its caller's to set, as eventQueue.pop
}

// remove takes out the entry at index i.
func (q *eventHeap) remove(i int) {
	h := *q
	ev := h[i].ev
	n := len(h) - 1
	last := h[n]
	h[n] = entry{}
	*q = h[:n]
	if i < n {
		h[i] = last
		q.down(i)
		q.up(last.ev.idx, last)
	}
	ev.idx = notQueued
}

// up lifts e, the entry at index i, to its place. Small enough to be
// inlined into push: a frame fewer under every message and timer a client
// queues, whose coroutine stack must fit in the 2 KB it starts with.
func (q eventHeap) up(i int, e entry) {
	for i > 0 {
		p := (i - 1) / 4
		if !e.before(&q[p]) {
			break
		}
		q[i] = q[p]
		q[i].ev.idx = i
		i = p
	}
	q[i] = e
	e.ev.idx = i
}

func (q eventHeap) down(i int) {
	n := len(q)
	e := q[i]
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c // the first child among up to four
		if c+4 <= n {
			m = q.min4(c)
		} else {
			for j := c + 1; j < n; j++ {
				if q[j].before(&q[m]) {
					m = j
				}
			}
		}
		if !q[m].before(&e) {
			break
		}
		q[i] = q[m]
		q[i].ev.idx = i
		i = m
	}
	q[i] = e
	e.ev.idx = i
}
