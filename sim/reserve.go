package sim

import "time"

// Reservation is the place in the kernel's order, (time, sequence), of an
// event not queued yet: Reserve takes it, Queue puts the event there. A
// request's timeout is stopped by its reply in nearly every run, so the
// client holds it back while the request or the reply still in flight is
// sure to land before it is due, and queues it only when that is no
// longer so (model's rpcCall): the queue then never sees the timeouts
// that never fire, and the order of events is the one it would have been.
type Reservation struct {
	at  time.Duration
	seq uint64
}

// At is the true time the reserved event runs at.
func (r Reservation) At() time.Duration { return r.at }

// Reserve takes the next sequence number for an event d after now (at
// Never if that is later), exactly as AfterHandler would, without
// queueing anything.
func (k *Kernel) Reserve(d time.Duration) Reservation {
	at, seq := k.place(d)
	return Reservation{at, seq}
}

// Queue queues h at the place r reserved. The caller must do it before
// any event after r runs, so before r's time: an event at r's place would
// have run first; Queue panics if r's time has passed.
func (k *Kernel) Queue(r Reservation, h Handler) Timer {
	if r.at < k.now {
		panic("sim: a reserved event queued after its time")
	}
	ev := k.free.Get()
	ev.seq, ev.h, ev.net = r.seq, h, nil
	k.queue.push(entry{r.at, r.seq, ev})
	return Timer{k, ev, r.seq}
}

// MaxDelay bounds the delay of a message sent now from from to to: the
// base latency, all of the jitter, the slow faults on either end and the
// link's own latency (see send). A lost or cut message is not delivered
// at all; one that is arrives no later than now+MaxDelay. Never
// negative: a delay below zero is delivered at once (send clamps it).
func (n *Network) MaxDelay(from, to string) time.Duration {
	d := n.latency + n.jitter
	if n.slowed { // most runs have neither slow faults nor links: no lookup at all
		d += n.ExtraLatency(from, to)
	}
	return max(d, 0)
}
