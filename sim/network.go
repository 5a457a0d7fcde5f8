package sim

import (
	"math/rand/v2"
	"sort"
	"time"
)

// Network decides, for each message between two named processes, whether it
// arrives and after how long: a base latency plus uniform jitter, extra
// latency and loss on "slow" processes, and no traffic across partitions.
// Messages already in flight when a partition starts are lost too: the
// check is made again on delivery.
type Network struct {
	k       *Kernel
	latency time.Duration
	jitter  time.Duration
	rng     *rand.Rand               // the "net" stream: loss draws
	draw    uniform                  // the jitter, on rng's own source
	parts   map[int][]map[string]int // partition id -> process -> group index
	slow    map[string]slowLink      // each process's slow faults combined: what send reads
	slows   []slowFault              // every slow fault on, in start order
	nextID  int
	slowID  int
	links   map[linkKey]slowLink // per-link latency and loss (links.go); nil: none

	// What every message's send and delivery test instead of the maps (a
	// map's length is a nil check and a load): kept by changed, combineSlow
	// and SetLink.
	cut    bool // a partition or isolation is on
	slowed bool // a slow fault or a link's own latency or loss is set

	onChange []func()                     // told after every partition, isolation or heal
	onDrop   []func(from, to, why string) // told about every message the network drops
}

type slowLink struct {
	latency time.Duration
	loss    float64
}

// slowFault is one slow fault on a process, until EndSlow(id).
type slowFault struct {
	id   int
	name string
	slowLink
}

// NewNetwork creates a network with the given one-way latency and jitter.
func (k *Kernel) NewNetwork(latency, jitter time.Duration) *Network {
	src := newSource(k.seed, "net")
	n := &Network{k: k, latency: latency, jitter: jitter, rng: rand.New(src),
		parts: map[int][]map[string]int{}, slow: map[string]slowLink{}}
	if jitter > 0 {
		n.draw = newUniform(src, uint64(jitter))
	}
	return n
}

// Partition cuts all traffic between processes in different groups until
// Heal is called with the returned id. A process in no group keeps its links.
func (n *Network) Partition(groups [][]string) int {
	n.nextID++
	idx := map[string]int{}
	for i, g := range groups {
		for _, name := range g {
			idx[name] = i
		}
	}
	n.parts[n.nextID] = []map[string]int{idx}
	n.changed()
	return n.nextID
}

// Isolate cuts one process off from everyone until Heal(id).
func (n *Network) Isolate(name string) int {
	n.nextID++
	n.parts[n.nextID] = []map[string]int{{name: 0}, nil}
	n.changed()
	return n.nextID
}

// Heal ends a partition or isolation.
func (n *Network) Heal(id int) {
	if _, ok := n.parts[id]; !ok {
		return
	}
	delete(n.parts, id)
	n.changed()
}

// OnChange registers fn to be called after every Partition, Isolate and
// Heal, in registration order: code that keeps state across a link (a
// replication stream, a failure detector) reacts to the topology changing
// rather than polling it.
func (n *Network) OnChange(fn func()) { n.onChange = append(n.onChange, fn) }

// OnDrop registers fn to be told about every message the network drops, with
// why: "lost" (a slow link's loss draw), "partitioned" (no link when it was
// sent) or "cut in flight" (a partition began while it travelled).
func (n *Network) OnDrop(fn func(from, to, why string)) { n.onDrop = append(n.onDrop, fn) }

func (n *Network) changed() {
	n.cut = len(n.parts) != 0
	for _, fn := range n.onChange {
		fn()
	}
}

func (n *Network) dropped(from, to, why string) {
	for _, fn := range n.onDrop {
		fn(from, to, why)
	}
}

// Dropper is a Handler that wants to know when its message will never be
// delivered (see SendHandler).
type Dropper interface {
	Handler
	Drop()
}

// cutInFlight drops the message ev if a partition began while it
// travelled, and reports whether it did (Kernel.run asks it when a
// partition is on). It reads ev's fields itself, so the kernel's loop keeps
// none of them across the call.
//
//go:noinline
func (n *Network) cutInFlight(ev *event) bool {
	if n.linked(ev.from, ev.to) {
		return false
	}
	from, to, h := ev.from, ev.to, ev.h
	n.k.release(ev)
	n.dropped(from, to, DropCutInFlight)
	dropHandler(h)
	return true
}

func dropHandler(h Handler) {
	if d, ok := h.(Dropper); ok {
		d.Drop()
	}
}

// Why a message was dropped, as OnDrop reports it.
const (
	DropLost        = "lost"
	DropPartitioned = "partitioned"
	DropCutInFlight = "cut in flight"
)

// ExtraLatency is the latency that slow faults add to the link between a and
// b (both ends count), plus the directed link a -> b's own (SetLink),
// without jitter or loss: what a TCP stream such as replication, which
// retransmits instead of losing, pays on top of its own delay.
func (n *Network) ExtraLatency(a, b string) time.Duration {
	var d time.Duration
	for _, name := range [2]string{a, b} {
		if s, ok := n.slow[name]; ok {
			d += s.latency
		}
	}
	if n.links != nil {
		d += n.links[linkKey{a, b}].latency
	}
	return d
}

// AddSlow puts a slow fault on every link of a process: extra latency and
// a loss rate, until EndSlow with the returned id. Slow faults on one
// process nest and compose the way the two ends of a link do: their
// latencies add up and their losses are independent draws, so a link is
// back to normal only when the last of them ends, and meanwhile those still
// on apply.
func (n *Network) AddSlow(name string, latency time.Duration, loss float64) int {
	n.slowID++
	n.slows = append(n.slows, slowFault{id: n.slowID, name: name, slowLink: slowLink{latency, loss}})
	n.combineSlow(name)
	return n.slowID
}

// EndSlow ends the slow fault id (ended ones are ignored).
func (n *Network) EndSlow(id int) {
	for i, f := range n.slows {
		if f.id == id {
			n.slows = append(n.slows[:i:i], n.slows[i+1:]...)
			n.combineSlow(f.name)
			return
		}
	}
}

// Slow is the extra latency and loss rate the slow faults on a process add
// to each of its links now.
func (n *Network) Slow(name string) (time.Duration, float64) {
	s := n.slow[name]
	return s.latency, s.loss
}

// combineSlow recomputes what the slow faults on name add up to, in start
// order (floating point is deterministic only in a fixed order). One fault
// is taken as it is, and a+b-ab spares a lossless one rounding, so that a
// loss rate given is the one applied.
func (n *Network) combineSlow(name string) {
	var c slowLink
	on := false
	for _, f := range n.slows {
		switch {
		case f.name != name:
		case !on:
			c, on = f.slowLink, true
		default:
			c.latency += f.latency
			// 1-(1-a)(1-b), exact when either is 0; the conversion rounds
			// the product, so no machine fuses it into a different result.
			c.loss = c.loss + f.loss - float64(c.loss*f.loss)
		}
	}
	if c == (slowLink{}) {
		delete(n.slow, name)
	} else {
		n.slow[name] = c
	}
	n.slowed = len(n.slow) != 0 || n.links != nil
}

// Connected reports whether a and b can exchange messages right now.
//
// The usual answer (no partition at all) is inlined into every send and
// delivery; the search of the partitions is a call of its own, so that
// its map iteration does not widen their frames.
func (n *Network) Connected(a, b string) bool {
	return !n.cut || n.linked(a, b)
}

// linked is Connected when some partition is on.
//
//go:noinline
func (n *Network) linked(a, b string) bool {
	if a == b {
		return true
	}
	for _, p := range n.parts {
		ga, okA := p[0][a]
		gb, okB := p[0][b]
		if len(p) == 2 { // isolation: the one named process against all others
			if okA != okB {
				return false
			}
			continue
		}
		if okA && okB && ga != gb {
			return false
		}
	}
	return true
}

// Send delivers a message from a to b by calling deliver after the link's
// delay, unless the message is lost. It reports whether the message left
// (false: dropped at once). Random draws happen in a fixed order per call, so
// the outcome depends only on the seed and the sequence of sends.
func (n *Network) Send(from, to string, deliver func()) bool {
	return n.send(from, to, funcHandler(deliver))
}

// SendHandler is Send with the delivery as a Handler (h.Fire()), which spares
// the hot RPC path a closure per message. If h is also a Dropper, it is told
// when the message is dropped instead, at once or in flight: exactly one of
// Fire and Drop is called, so a pooled handler knows when it is free.
func (n *Network) SendHandler(from, to string, h Handler) bool {
	return n.send(from, to, h)
}

// Envelope holds a message's kernel event for a sender that keeps it
// (SendIn), so that sending and delivering it take nothing from the
// kernel's free list and give nothing back: model's rpc calls, whose
// request and reply are each one message, never both in flight.
type Envelope struct{ ev event }

// SendIn is SendHandler with the message's event in e. The caller must not
// send e again until this message has been delivered or dropped (h's Fire
// or Drop has been called): a handler may send it again from there.
func (n *Network) SendIn(e *Envelope, from, to string, h Handler) bool {
	e.ev.kept = true
	return n.sendEvent(&e.ev, from, to, h)
}

// send makes the message a kernel event of its own (event.net) from the
// kernel's free list.
func (n *Network) send(from, to string, h Handler) bool {
	return n.sendEvent(n.k.free.Get(), from, to, h)
}

// sendEvent fills ev, the message's kernel event, before anything else:
// then only n and ev are live across the jitter draw's call, where from,
// to and h were spilled and reloaded around it on every message. A
// message dropped at once gives its event back.
func (n *Network) sendEvent(ev *event, from, to string, h Handler) bool {
	k := n.k
	ev.h, ev.net, ev.from, ev.to = h, n, from, to
	d := n.latency
	if n.jitter > 0 {
		d += time.Duration(n.draw.fit(n.draw.src.Uint64())) // rng.Int64N(jitter), inlined (uniform.fit)
	}
	if n.slowed || n.cut {
		var ok bool
		if d, ok = n.impair(ev, d); !ok {
			return false
		}
	}
	at, seq := k.place(d)
	ev.seq = seq // a stale Timer of the event's last use must not match
	k.queue.push(entry{at, seq, ev})
	return true
}

// impair is send's part for a network with slow faults, slow links or
// partitions: the delay they add, the loss draw, and whether the message
// leaves (false: it is dropped, and its event given back).
func (n *Network) impair(ev *event, d time.Duration) (time.Duration, bool) {
	from, to := ev.from, ev.to
	loss := 0.0
	if len(n.slow) != 0 {
		for _, name := range [2]string{from, to} {
			if s, ok := n.slow[name]; ok {
				d += s.latency
				loss = 1 - float64((1-loss)*(1-s.loss)) // rounded: never fused (see combineSlow)
			}
		}
	}
	if n.links != nil {
		if l, ok := n.links[linkKey{from, to}]; ok {
			d += l.latency
			loss = 1 - float64((1-loss)*(1-l.loss))
		}
	}
	why := ""
	switch {
	case loss > 0 && n.rng.Float64() < loss:
		why = DropLost
	case !n.Connected(from, to):
		why = DropPartitioned
	default:
		return d, true
	}
	h := ev.h
	n.k.release(ev)
	n.dropped(from, to, why)
	dropHandler(h)
	return 0, false
}

// Partitions lists the active partitions' ids in order, for display.
func (n *Network) Partitions() []int {
	ids := make([]int, 0, len(n.parts))
	for id := range n.parts {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}
