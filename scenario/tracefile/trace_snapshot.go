package tracefile

import (
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/scenario/player"
)

// firstViolation is the judge's first violation of a recorded trace, in
// English and as its phrase, which the TUI renders in its language.
type firstViolation struct {
	en string
	p  judge.Phrase
}

// snapshot draws the state after event i at true time at, as
// player.At draws a live world: the lock key counts down (by true
// time, scaled by the node's clock rate) and vanishes at its expiry.
func (s *traceState) snapshot(t *tracePlayer, i int, at time.Duration) player.Snapshot {
	h := &t.tr.Header
	snap := player.Snapshot{Scenario: h.Scenario, Strategy: h.Strategy, Seed: h.Seed, Key: h.Key, Now: at, Event: i,
		Over: i == len(t.tr.Events), Metrics: s.metrics, FirstViolation: s.first.en, FirstViolationPhrase: s.first.p, Quorum: h.Quorum,
		Sentinels: h.Sentinels, SentinelQuorum: h.SentinelQuorum, SentinelsCut: make([]bool, len(h.Sentinels))}
	if len(s.cuts) > 0 {
		snap.Partitions = 1
	}
	owned := make([]int, len(s.clients))
	for ni, n := range s.nodes {
		hn := h.Nodes[ni]
		ns := player.NodeSnap{Name: hn.Name, Replica: n.replica, Up: !n.down, ClockOffset: n.clock.Offset(at), ClockRate: n.clock.Rate()}
		ns.Partitioned = s.cutNode(hn.Name)
		if k, ok := liveKey(n, at); ok {
			ks := player.KeySnap{Key: h.Key, Type: "string", Value: k.Owner, Lock: true, TTL: k.TTL}
			ks.Owner = t.ownerName(k.Owner)
			if ci := t.client(ks.Owner); ci >= 0 && n.lock {
				owned[ci]++
			}
			ns.Keys = []player.KeySnap{ks}
		}
		snap.Nodes = append(snap.Nodes, ns)
	}
	for ci, c := range s.clients {
		snap.Clients = append(snap.Clients, s.clientSnap(h.Clients[ci].Name, h.Clients[ci].Holds, c, at, owned[ci] >= max(h.Quorum, 1)))
	}
	snap.Resource = s.res
	snap.Resource.Writes = append([]model.Write(nil), s.res.Writes...)
	return snap
}

// liveKey is the lock key on n at true time at, with its TTL then by the
// node's clock, and false when there is none.
func liveKey(n traceNode, at time.Duration) (judge.KeyState, bool) {
	k := n.key
	if !k.Held || n.down || (k.Expires >= 0 && at >= k.Expires) {
		return k, false
	}
	if k.Expires >= 0 {
		k.TTL = time.Duration(float64(k.Expires-at) * n.clock.Rate())
	}
	return k, true
}

func (s *traceState) cutNode(node string) bool {
	for k := range s.cuts {
		if k[1] == node {
			return true
		}
	}
	return false
}

func (s *traceState) cutClient(client string) bool {
	for k := range s.cuts {
		if k[0] == client {
			return true
		}
	}
	return false
}

// clientSnap draws one client: what it believes beside what is true.
func (s *traceState) clientSnap(name string, holds int, c traceClient, at time.Duration, owns bool) player.ClientSnap {
	cs := player.ClientSnap{Name: name, State: c.state, Hold: c.hold, Holds: holds, InCS: c.inCS, Until: -1,
		ClockOffset: c.clock.Offset(at), ClockRate: c.clock.Rate(), Partitioned: s.cutClient(name)}
	switch {
	case c.state == "crashed" || c.state == "done":
	case c.paused:
		cs.State = "paused"
	case c.hung:
		cs.State = "hung"
	}
	if c.believes {
		cs.Believes, cs.Token, cs.Fence, cs.Until = true, c.token, c.fence, c.until
		if c.until >= 0 {
			cs.Remaining = c.until - c.clock.Wall(at)
		}
	}
	cs.OwnsKey = owns
	cs.Mismatch = cs.Believes != cs.OwnsKey
	return cs
}
