package sim

import "time"

// Link is the behaviour of one directed link, from one named process to
// another, on top of the network's base latency and jitter (and of any slow
// faults): extra one-way latency and a loss rate. It is how a scenario says
// "client A is 80 ms from redis-3" without slowing all of redis-3's links.
type Link struct {
	From, To string
	Latency  time.Duration // added to every message from From to To
	Loss     float64       // probability in [0, 1] that such a message is lost
}

type linkKey struct{ from, to string }

// SetLink gives the directed link l.From -> l.To its extra latency and loss
// for the rest of the run, replacing what was set for it before. A link in
// the other direction is a second Link. Links are set when a world is
// built: the draws of a send do not depend on the order links were set in.
func (n *Network) SetLink(l Link) {
	if n.links == nil {
		n.links = map[linkKey]slowLink{}
	}
	n.links[linkKey{l.From, l.To}] = slowLink{latency: l.Latency, loss: l.Loss}
	n.slowed = true
}

// LinkOf is what SetLink gave the directed link from -> to (zero: nothing).
func (n *Network) LinkOf(from, to string) (time.Duration, float64) {
	s := n.links[linkKey{from, to}]
	return s.latency, s.loss
}
