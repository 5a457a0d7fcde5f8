package tracefile

import (
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/model/tracelog"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/sim"
)

// traceState is the world as a recorded trace tells it, after some of its
// events: plain data (copied whole for a checkpoint), changed only by
// apply and applyHistory, drawn by snapshot. It knows what the trace says
// and nothing more: the lock key only (no other keys), partitions as the
// client-node pairs the judge was told are cut.
type traceState struct {
	nodes    []traceNode
	clients  []traceClient
	res      player.ResourceSnap
	values   []int64 // per client: the value of the resource it works on (named resources), as its last write left it
	cuts     map[[2]string]bool
	metrics  model.Metrics
	first    firstViolation
	lastTime time.Duration
}

type traceNode struct {
	replica, down bool
	lock          bool           // the strategy writes the lock key here (a promoted replica inherits it)
	key           judge.KeyState // the lock key; Held false: none
	clock         sim.Clock
}

type traceClient struct {
	state          string
	hold           int
	believes, inCS bool
	paused, hung   bool
	token          string
	fence          int64
	until          time.Duration
	clock          sim.Clock
}

func newTraceState(h *tracelog.Header) *traceState {
	s := &traceState{cuts: map[[2]string]bool{}}
	for _, n := range h.Nodes {
		s.nodes = append(s.nodes, traceNode{replica: n.Role == "replica", lock: n.Lock, key: judge.KeyState{TTL: -2, Expires: -1}})
	}
	for range h.Clients {
		s.clients = append(s.clients, traceClient{state: string(model.StateIdle), until: -1})
	}
	s.res = player.ResourceSnap{Fencing: h.Fencing}
	return s
}

// clone is a deep copy, for a checkpoint.
func (s *traceState) clone() *traceState {
	c := *s
	c.nodes = append([]traceNode(nil), s.nodes...)
	c.clients = append([]traceClient(nil), s.clients...)
	c.res.Writes = append([]model.Write(nil), s.res.Writes...)
	c.values = append([]int64(nil), s.values...)
	c.cuts = make(map[[2]string]bool, len(s.cuts))
	for k, v := range s.cuts {
		c.cuts[k] = v
	}
	return &c
}

// apply reads one trace event's message id and arguments.
func (s *traceState) apply(t *tracePlayer, e *sim.Event) {
	str := func(k string) string { a, _ := e.Args.Get(k); return a.Str }
	num := func(k string) int64 { a, _ := e.Args.Get(k); return a.Int }
	ci, ni := t.client(str(tracelog.ArgClient)), t.node(str(tracelog.ArgNode))
	switch {
	case e.ID == tracelog.IDAcquired && ci >= 0:
		c := &s.clients[ci]
		c.believes, c.token, c.fence = true, str(tracelog.ArgToken), num(tracelog.ArgFence)
		c.until = untilOf(e.Args)
		t.guess(c, model.StateHolding)
	case e.ID == tracelog.IDRenewed && ci >= 0:
		s.clients[ci].until = untilOf(e.Args)
	case e.ID == tracelog.IDReleased && ci >= 0:
		c := &s.clients[ci]
		c.believes, c.token, c.fence, c.until = false, "", 0, -1
		t.guess(c, model.StateIdle)
	case e.ID == tracelog.IDDone && ci >= 0:
		c := &s.clients[ci]
		c.believes = false
		t.guess(c, model.StateDone)
	case e.ID == tracelog.IDWrite && ci >= 0:
		s.write(t, e, ci, num(tracelog.ArgAccepted) == 1, num(tracelog.ArgFence), num(tracelog.ArgValue))
	case e.ID == tracelog.IDNodeCrashed && ni >= 0:
		s.nodes[ni].down = true
	case e.ID == tracelog.IDNodeRestarted && ni >= 0:
		s.nodes[ni].down = false
	case e.ID == tracelog.IDReplicated && ni >= 0 && str(tracelog.ArgKey) == t.tr.Header.Key:
		s.nodes[ni].key = judge.KeyState{TTL: -2, Expires: -1}
		if num(tracelog.ArgDeleted) == 0 {
			s.nodes[ni].key = judge.KeyState{Held: true, Owner: str(tracelog.ArgOwner), TTL: -1, Expires: time.Duration(num(tracelog.ArgExpireAtNS))}
		}
	}
}

// untilOf is a lease's end by the client's clock: until_ns, or until_ms
// from a producer that writes only that (-1 stays: no expiry).
func untilOf(a sim.Args) time.Duration {
	if ns, ok := a.Get(tracelog.ArgUntilNS); ok && ns.IsInt {
		return time.Duration(ns.Int)
	}
	ms, _ := a.Get(tracelog.ArgUntilMS)
	if ms.Int < 0 {
		return -1
	}
	return time.Duration(ms.Int) * time.Millisecond
}

// write records client ci's write to the resource. With named resources
// the value shown is their total, as the live resource's (Total).
func (s *traceState) write(t *tracePlayer, e *sim.Event, ci int, ok bool, fence, value int64) {
	if ok {
		s.res.Value, s.res.Accepted = value, s.res.Accepted+1
		s.res.MaxToken = max(s.res.MaxToken, fence)
		if h := &t.tr.Header; h.Clients[ci].Resource != "" {
			s.res.Value = s.resourceTotal(h, ci, value)
		}
	} else {
		s.res.Rejected++
	}
	s.res.Writes = append(s.res.Writes, model.Write{At: int64(e.At), Client: t.tr.Header.Clients[ci].Name, Token: fence, Value: value, Accepted: ok})
	if len(s.res.Writes) > player.RecentWrites {
		s.res.Writes = s.res.Writes[len(s.res.Writes)-player.RecentWrites:]
	}
}

// resourceTotal sets the value of client ci's resource (every client on it
// shares it) and returns the total over the resources.
func (s *traceState) resourceTotal(h *tracelog.Header, ci int, value int64) int64 {
	if s.values == nil {
		s.values = make([]int64, len(h.Clients))
	}
	var total int64
	for i, c := range h.Clients {
		if c.Resource == h.Clients[ci].Resource {
			s.values[i] = value
		}
	}
	seen := map[string]bool{}
	for i, c := range h.Clients {
		if !seen[c.Resource] {
			seen[c.Resource] = true
			total += s.values[i]
		}
	}
	return total
}

// guess sets a client's state from what it did, for a trace that does not
// record states (one written by a producer other than lockstep's world).
func (t *tracePlayer) guess(c *traceClient, st model.ClientState) {
	if !t.states {
		c.state = string(st)
	}
}
