package sim

import (
	"slices"
	"testing"
	"time"
)

// pinger sends its one Envelope again from its own delivery, n times, and
// notes each arrival's time; a drop ends it.
type pinger struct {
	net     *Network
	env     Envelope
	left    int
	at      []time.Duration
	dropped int
}

func (p *pinger) Fire() {
	p.at = append(p.at, p.net.k.Now())
	if p.left--; p.left > 0 {
		p.net.SendIn(&p.env, "a", "b", p)
	}
}

func (p *pinger) Drop() { p.dropped++ }

// A message sent in an Envelope arrives as SendHandler's would, at the
// same times, and may be sent again from its delivery; its event is never
// the free list's, and a drop (at once or in flight) tells the Dropper and
// leaves the list as it was.
func TestSendInKeepsItsEvent(t *testing.T) {
	arrivals := func(send func(n *Network, p *pinger)) (*pinger, int) {
		k := NewKernel(3)
		n := k.NewNetwork(time.Millisecond, 300*time.Microsecond)
		p := &pinger{net: n, left: 5}
		send(n, p)
		k.RunUntil(time.Second)
		return p, len(k.free.items)
	}
	handed, _ := arrivals(func(n *Network, p *pinger) { n.SendHandler("a", "b", (*handedPinger)(p)) })
	kept, free := arrivals(func(n *Network, p *pinger) { n.SendIn(&p.env, "a", "b", p) })
	if len(kept.at) != 5 || !slices.Equal(kept.at, handed.at) {
		t.Fatalf("SendIn arrived at %v, SendHandler at %v", kept.at, handed.at)
	}
	if free != 0 {
		t.Errorf("the free list holds %d events after messages in an Envelope only", free)
	}
	k := NewKernel(3)
	n := k.NewNetwork(time.Millisecond, 0)
	p := &pinger{net: n, left: 5}
	n.SendIn(&p.env, "a", "b", p)
	id := n.Isolate("b")
	k.RunUntil(time.Second) // cut in flight
	n.Heal(id)
	if p.dropped != 1 || len(k.free.items) != 0 {
		t.Fatalf("cut in flight: %d drops, %d free events; want 1, 0", p.dropped, len(k.free.items))
	}
	n.Isolate("b")
	if n.SendIn(&p.env, "a", "b", p) || p.dropped != 2 || len(k.free.items) != 0 {
		t.Fatalf("partitioned: %d drops, %d free events; want 2, 0", p.dropped, len(k.free.items))
	}
}

// handedPinger is a pinger that sends with SendHandler, the kernel's events.
type handedPinger pinger

func (h *handedPinger) Fire() {
	p := (*pinger)(h)
	p.at = append(p.at, p.net.k.Now())
	if p.left--; p.left > 0 {
		p.net.SendHandler("a", "b", h)
	}
}
