package model

import (
	"fmt"
	"time"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/model/store"
	"github.com/lockstep-sim/lockstep/sim"
)

// The world feeds its judge (package judge) the history of the run as it
// happens: every event below is what a client, a node or the resource did,
// never a question the judge asks back, except the lock key's state, which
// the world reads for it on demand (World.LockKey).

// Checker is the world's judge.
type Checker = judge.Judge

// Metrics are the run's verdict (see judge.Metrics).
type Metrics = judge.Metrics

// Op says what a command means to the lock (see judge.Op).
type Op = judge.Op

// Command meanings.
const (
	OpOther   = judge.OpOther
	OpAcquire = judge.OpAcquire // may create the lock key
	OpRelease = judge.OpRelease // may delete the lock key
	OpRenew   = judge.OpRenew   // may extend the lock key
)

func newChecker(w *World) *judge.Judge {
	cfg := judge.Config{Quorum: w.strategy.Quorum(w), Watchdog: w.Cfg.Lock.Watchdog != nil,
		Tell: func(proc, kind, id string, args []sim.Arg) { w.Tell(proc, kind, id, args...) }}
	cfg.Nodes = make([]string, len(w.Nodes))
	for i, n := range w.Nodes {
		cfg.Nodes[i] = n.Name()
	}
	cfg.Clients = make([]string, len(w.Cfg.Clients))
	for i, c := range w.Cfg.Clients {
		cfg.Clients[i] = c.Name
	}
	cfg.Resources = resourcesOf(w.Cfg.Clients)
	return judge.New(cfg)
}

// feed gives the judge one event, stamped with the current true time.
// Events are built on the caller's stack and passed by pointer: a run
// feeds several per lock command. The judge hands each to the Tap
// (judge.Record), which keeps this small enough to be inlined.
func (w *World) feed(e *judge.Event) {
	e.At = w.K.Now()
	w.Chk.Feed(e)
}

// clientWaited is an event of client c that carries how long it waited
// (judge.EnterCS, judge.AcquireFailed). It is World.waited, reused rather
// than built on the stack: Client.acquire sits below every request a hold
// sends, and a judge.Event in its frame would push each client's
// coroutine stack past its first 2 KB (runtime.newstack copies it). The
// judge keeps no event it is fed (a Tap gets a copy), and only these
// fields (and At, feed's) are ever set on it.
func (w *World) clientWaited(kind judge.Kind, c *Client, wait time.Duration) {
	e := &w.waited
	e.Kind, e.Client, e.ClientID, e.Wait = kind, c.Name, c.id+1, wait
	w.feed(e)
}

// clientEvent is an event of client c, of a kind that carries nothing
// else (judge.ClientEvent). The judge finds c's books by its place in
// the world's list, which is the judge's Config.Clients (newChecker).
func (w *World) clientEvent(kind judge.Kind, c *Client) {
	w.Chk.ClientEvent(kind, c.id+1, w.K.Now())
}

// clientWorking, clientLeft and clientReleasing are the client events of
// every hold, each read by a method of its own (judge.Judge.ClientWorking).
func (w *World) clientWorking(c *Client)   { w.Chk.ClientWorking(c.id+1, w.K.Now()) }
func (w *World) clientLeft(c *Client)      { w.Chk.ClientLeft(c.id+1, w.K.Now()) }
func (w *World) clientReleasing(c *Client) { w.Chk.ClientReleasing(c.id+1, w.K.Now()) }

// judgeCommand tells the judge what a lock command of client (numbered
// id, its Client.id; -1: not a built-in client) did to the lock key.
func (w *World) judgeCommand(n *Node, client string, id int, op Op, p store.Presence) {
	// Field by field: a literal is built from a template and then copied
	// (144 bytes twice, on every lock command).
	var e judge.Event
	e.Kind, e.Client, e.ClientID, e.Node, e.NodeID, e.Op = judge.Command, client, id+1, n.Name(), n.ID()+1, op
	e.Before, e.After, e.Probe = p.Before, p.After, &w.probes[n.ID()]
	if !p.Before && p.After && n.Stale() {
		e.Note = fmt.Sprintf("%s had replaced %s as master at %s; cut off, %s still granted it: split brain",
			n.ReplacedBy().Name(), n.Name(), sim.FormatTime(n.ReplacedAt()), n.Name())
	}
	e.At = w.K.Now()
	w.Chk.Command(&e)
}

// nodeEvent is an event of node n whose lock key the judge may read, on
// keyOn (n, or the node a failover promoted).
func (w *World) nodeEvent(e judge.Event, n, keyOn *Node) {
	e.Node, e.Probe = n.Name(), &w.probes[keyOn.ID()]
	w.feed(&e)
}

// probe reads the lock key on one node for the judge (judge.Probe); the
// world makes one per node, so an event's probe costs no allocation.
type probe struct {
	w *World
	n *Node
}

// LockKey reads the lock key for the judge: right after the command just
// run, or as the node holds it at true time now (which advances the node
// to now, as any look does).
func (p *probe) LockKey(afterCommand bool, now time.Duration) judge.KeyState {
	n, key := p.n, p.w.Cfg.Lock.Key
	var read Effect
	var st *Effect
	switch {
	case afterCommand:
		if st = n.TrackedRef(key); st == nil {
			read = n.KeyState(key)
			st = &read
		}
	case n.Exists(now, key):
		read = n.KeyState(key)
		st = &read
	default:
		return judge.KeyState{TTL: -2, Expires: -1}
	}
	if st.Deleted {
		return judge.KeyState{TTL: -2, Expires: -1}
	}
	ttl := n.PTTLOf(*st)
	k := judge.KeyState{Held: true, Owner: st.Owner(), TTL: ttl, Expires: -1}
	if ttl >= 0 {
		// Both of the node's readings advance at its clock's rate, so the
		// true time at which the expiry clock has advanced by ttl is exact.
		k.Expires = now + n.Clock().TrueAfter(now, ttl)
	}
	return k
}

// judgeFinish closes the judge's books: which lock nodes hold the key now.
func (w *World) judgeFinish() {
	if w.Chk.Finished() {
		return
	}
	e := judge.Event{Kind: judge.Final, Detail: &judge.Detail{}}
	now := w.Now()
	for _, n := range w.strategy.LockNodes(w) {
		if n.Up() && n.Exists(now, w.Cfg.Lock.Key) {
			e.Holding = append(e.Holding, n.Name())
		}
	}
	w.feed(&e)
}

// Tap makes fn see every event the judge is fed, in order (nil: none), to
// record a run's history.
func (w *World) Tap(fn func(judge.Event)) {
	w.tap = fn
	w.Chk.Record(fn)
}

// observer tells the judge what the cluster's node events did to the lock
// key (redis.Observer).
type observer struct{ w *World }

func (o observer) Restarted(n *Node) {
	o.w.nodeEvent(judge.Event{Kind: judge.Restarted, Detail: &judge.Detail{Persistence: n.Config().Persistence, CrashedAt: n.CrashedAt()}}, n, n)
}

func (o observer) FailedOver(old, promoted *Node) {
	cut := old.Up() && !o.w.Net.Connected(old.Name(), promoted.Name())
	o.w.nodeEvent(judge.Event{Kind: judge.FailedOver, OK: old.Up(), Detail: &judge.Detail{Other: promoted.Name(), Cut: cut}}, old, promoted)
}

// Replicated tells the judge of a write of the lock key that reached a
// replica (the last one, if a command wrote the key twice).
func (o observer) Replicated(r, m *Node, effs []Effect) {
	key := o.w.Cfg.Lock.Key
	for i := len(effs) - 1; i >= 0; i-- {
		if x := effs[i]; x.Key == key {
			d := &judge.Detail{Other: m.Name(), Token: x.Owner()}
			o.w.nodeEvent(judge.Event{Kind: judge.Replicated, OK: !x.Deleted, Detail: d}, r, r)
			return
		}
	}
}

func (o observer) Resynced(r, m *Node) {
	o.w.nodeEvent(judge.Event{Kind: judge.Resynced, Detail: &judge.Detail{Other: m.Name()}}, r, r)
}

func (o observer) NodeClockJumped(n *Node, by time.Duration, exp []Expiry) {
	d := &judge.Detail{By: by, Monotonic: n.Config().Monotonic, Early: -1}
	e := judge.Event{Kind: judge.NodeClockJumped, Detail: d}
	for _, x := range exp {
		if x.Key == o.w.Cfg.Lock.Key {
			d.Early = x.Early
		}
	}
	o.w.nodeEvent(e, n, n)
}

func (o observer) NodeClockDrifted(n *Node, rate float64) {
	o.w.nodeEvent(judge.Event{Kind: judge.NodeClockRate, Detail: &judge.Detail{Rate: rate}}, n, n)
}
