package tracefile

import (
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/judge"
)

// applyHistory reads one event the judge read: client states, the lock key
// on nodes, roles, clocks, cuts.
func (s *traceState) applyHistory(t *tracePlayer, e *judge.Event) {
	if ci := t.client(e.Client); ci >= 0 && e.Kind != judge.Command && (e.Kind < judge.ResourceRead || e.Kind == judge.ClientState) {
		s.clientEvent(t, &s.clients[ci], e)
	}
	ni := t.node(e.Node)
	switch e.Kind {
	case judge.Command:
		if c := t.client(e.Client); c >= 0 && !t.states && e.Op == judge.OpAcquire && !s.clients[c].believes &&
			s.clients[c].state != string(model.StateAcquiring) {
			s.clients[c].state = string(model.StateAcquiring) // a hold begins
			s.clients[c].hold++
		}
		if ni >= 0 {
			s.keyAfter(ni, e)
		}
	case judge.Restarted:
		if ni >= 0 {
			s.nodes[ni].down = false
			s.nodes[ni].key = e.Key
		}
	case judge.FailedOver:
		if oi := t.node(e.Other); oi >= 0 {
			s.nodes[oi].replica = false
			if ni >= 0 { // the strategy writes to the shard's master: now the promoted one
				s.nodes[oi].lock, s.nodes[ni].lock = s.nodes[ni].lock, false
			}
			s.nodes[oi].key = e.Key
		}
	case judge.Resynced:
		if ni >= 0 {
			s.nodes[ni].replica = true
			s.nodes[ni].key = e.Key
		}
	case judge.NodeClockJumped, judge.NodeClockRate:
		if ni >= 0 {
			s.nodeClock(&s.nodes[ni], e)
		}
	case judge.Replicated:
		if ni >= 0 && e.Key.Held { // the key as the replica stores it (its clock, its version)
			s.nodes[ni].key = e.Key
		}
	case judge.Evicted:
		if ni >= 0 {
			s.nodes[ni].key = judge.KeyState{TTL: -2, Expires: -1}
		}
	case judge.CutOff:
		s.cuts[[2]string{e.Client, e.Node}] = true
	case judge.Reconnected:
		delete(s.cuts, [2]string{e.Client, e.Node})
	case judge.ResourceRead:
		if !e.OK {
			s.res.Rejected++
		}
	}
}

// keyAfter is the lock key on node ni after a command: as the judge read
// it when it did, gone when the command deleted it, else as it was.
func (s *traceState) keyAfter(ni int, e *judge.Event) {
	switch {
	case !e.After:
		s.nodes[ni].key = judge.KeyState{TTL: -2, Expires: -1}
	case e.Key.Held:
		s.nodes[ni].key = e.Key
	}
}

// clientEvent reads an event of one client.
func (s *traceState) clientEvent(t *tracePlayer, c *traceClient, e *judge.Event) {
	switch e.Kind {
	case judge.EnterCS:
		c.inCS = true
	case judge.Working:
		t.guess(c, model.StateWorking)
	case judge.LeaveCS:
		c.inCS = false
		t.guess(c, model.StateReleasing)
	case judge.AcquireFailed:
		t.guess(c, model.StateIdle)
	case judge.ClientState:
		c.state, c.hold = e.Note, int(e.Value)
	case judge.Crashed:
		c.inCS, c.believes, c.state = false, false, string(model.StateCrashed)
	case judge.Paused, judge.Resumed:
		c.paused = e.Kind == judge.Paused
	case judge.Hung, judge.Unhung:
		c.hung = e.Kind == judge.Hung
	case judge.ClientClockJumped:
		c.clock.Jump(e.At, e.By)
	case judge.ClientClockRate:
		c.clock.SetRate(e.At, e.Rate)
	}
}

// nodeClock reads a node's clock fault: the clock, and the lock key, which
// a forward jump may expire at once (Early) or whose expiry moves.
func (s *traceState) nodeClock(n *traceNode, e *judge.Event) {
	if e.Kind == judge.NodeClockRate {
		n.clock.SetRate(e.At, e.Rate)
	} else {
		n.clock.Jump(e.At, e.By)
	}
	switch {
	case e.Kind == judge.NodeClockJumped && e.Early >= 0:
		n.key = judge.KeyState{TTL: -2, Expires: -1}
	case e.Key.Held:
		n.key = e.Key
	}
}
