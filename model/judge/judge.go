// Package judge is lockstep's safety checker. It reads a history of typed
// events (clients acquiring, entering and leaving their critical section,
// lock commands and what they did to the lock key on each node, node
// faults, resource reads and writes) and judges it from true time: who was
// in a critical section with whom, who owned each lock key, how each grant
// ended. It never looks at a client or a node except through the history
// (and a Probe the history may give for a key's state), and it writes
// nothing but its own books, so it can judge a history that did not come
// from lockstep's own clients.
package judge

import (
	"time"

	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// Config is what the judge knows of the run beyond its events.
type Config struct {
	// Nodes are the node names in the order explanations search them.
	Nodes []string
	// Clients are the client names; a lock token "<client>-<n>" names its
	// owner (see tokenOwner).
	Clients []string
	// Quorum is how many lock nodes must hold a grant for it to be in force.
	Quorum int
	// Watchdog: the clients renew their leases in the background (for
	// explanations).
	Watchdog bool
	// Emit adds a trace line (VIOLATION, WRONG-RELEASE) at the time of the
	// event being read; nil: none.
	Emit func(proc, kind, msg string)
	// Tell, when set, is used instead of Emit: the line of message id
	// (model/tracemsg) with its arguments, its text rendered from them.
	Tell func(proc, kind, id string, args []sim.Arg)
	// Resources maps a client to the resource it works on, when clients
	// work on different ones (resources.go); nil: all on the one counter.
	Resources map[string]string
}

// Judge keeps the books of one run.
type Judge struct {
	cfg      Config
	m        Metrics
	inCS     []string // clients in their critical section, in order of entry
	episode  bool
	first    string
	firstP   Phrase // first as a Phrase, for FirstViolationIn
	firstAt  time.Duration
	nodes    byNode              // node name -> the grant of the lock key in force there, and the last that ended
	spare    *grant              // an ended grant no longer kept, for the next grant (newGrant)
	copies   map[string]*keyCopy // replica name -> the lock key replication brought there
	stuckWhy string
	stuckP   Phrase // stuckWhy as a Phrase, for StuckReasonIn
	finished bool
	// clockNotes are the clock faults per node name, in time order.
	clockNotes map[string][]clockNote
	// replaced is the last failover of each node that was a master: who
	// replaced it, when (stale.go).
	replaced map[string]replacement
	clients  map[string]*client
	byPlace  []client                 // Config.Clients' books, in order: by ClientID (clientOf)
	last     *client                  // the client of the last client event, and its name:
	lastName string                   // consecutive events are mostly one client's
	cutSince map[string]time.Duration // client|node -> since when they are separated
	// The resource's books: writes applied, requests refused, the value.
	accepted, rejected, value int64

	live   liveness    // deadlocks and throughput (liveness.go)
	record func(Event) // sees each event read (Record)
	// The named resources' books and violation episodes (resources.go).
	books    map[string]*resourceBooks
	episodes map[string]bool
}

// client is what the history says of one client.
type client struct {
	inCS        bool
	working     bool // its work (or release) began: "working", else "holding"
	paused      bool
	pausedSince time.Duration
	hung        bool
	hungSince   time.Duration
	crashed     bool
	clock       sim.Clock // mirrors its clock faults, for explanations
	// granted: it entered its critical section since its last release;
	// lastEnd says how its latest grant since then ended ("" none yet).
	granted bool
	lastEnd Phrase
	token   string // the value of its latest grant (to tell its holds apart)
}

// grant is the ground truth about one lock key on one node.
type grant struct {
	owner   string
	books   *client // the owner's books (command and adopt find them)
	value   string  // the lock key's value (the owner's token), to recognise it elsewhere
	at      time.Duration
	set     time.Duration // when its TTL was last set (grant or renewal)
	ttl     time.Duration // the TTL it was set with, by the node's clock
	expires time.Duration // true time the key expires if nothing changes; -1: never
	ended   bool
	endedAt time.Duration
	how     Phrase // how it ended, for explanations
	// lostBy says why a grant still in force no longer counts: its node was
	// replaced by a failover it could not hear of (split brain).
	lostBy Phrase
	// from is the node that set its TTL when that was another (the grant
	// came with a failover): the absolute expiry is that node's, so every
	// clock fault of this node bears on it, not only those since set.
	from string
}

// New is a judge with empty books.
func New(cfg Config) *Judge {
	// Faults and ended grants are rare in a short run (explore builds
	// thousands): those maps are made on first use.
	j := &Judge{cfg: cfg, clients: make(map[string]*client, len(cfg.Clients)), nodes: newByNode(cfg.Nodes)}
	j.byPlace = make([]client, len(cfg.Clients))
	for i, c := range cfg.Clients {
		j.clients[c] = &j.byPlace[i]
	}
	return j
}

// Feed reads one event of the history; events come in time order.
func (j *Judge) Feed(e *Event) {
	switch e.Kind {
	case Command:
		j.command(e)
	case EnterCS:
		j.m.MaxWait = max(j.m.MaxWait, e.Wait)
		j.enterCS(e, j.clientOf(e.Client, e.ClientID))
	case LeaveCS, Working, Releasing:
		j.readClient(e.Kind, e.Client, j.clientOf(e.Client, e.ClientID), e.At)
	case ResourceRead, ResourceWrite:
		j.resourceEvent(e)
	case ResourceDuplicate:
		j.m.DuplicateWrites++
	case Deadlock:
		j.deadlock(e)
	case AcquireFailed:
		j.m.MaxWait = max(j.m.MaxWait, e.Wait)
		j.m.FailedAcquires++
	case NestedFailed:
		j.m.FailedAcquires++
	case Crashed:
		c := j.client(e.Client)
		c.crashed = true
		j.leaveCS(e.Client, c)
	case Restarted, FailedOver, Resynced, NodeClockJumped, NodeClockRate, Replicated:
		j.keyEvent(e)
	case Final:
		j.finish(e)
	case WriteRefused:
		j.m.RefusedWrites++
	case Evicted:
		j.evicted(e)
	default:
		j.clientFault(e, j.client(e.Client))
	}
	if j.record != nil {
		j.recordRead(e)
	}
}

// Command is Feed of a Command event, for the feeder that knows its kind
// (a live run, on every lock command): read without Feed's switch.
func (j *Judge) Command(e *Event) {
	j.command(e)
	if j.record != nil {
		j.recordRead(e)
	}
}

// recordRead hands the recorder (Record) a copy of e as read. The copy
// is in a frame of its own: Feed's is on a client's coroutine stack at
// every grant (EnterCS), and a coroutine stack that outgrows its first
// 2 KB is copied.
//
//go:noinline
func (j *Judge) recordRead(e *Event) {
	r := *e
	r.Probe, r.NodeID, r.ClientID = nil, 0, 0 // what the judge read of the key is in r.Key; a history names its nodes and clients
	j.record(r)
}

// Record makes fn see every event Feed reads (nil: none), right after it
// is read, with the lock key's state it read through the Probe, to
// record the history: the feeder need not look at each event again.
func (j *Judge) Record(fn func(Event)) { j.record = fn }

// ClientEvent is Feed of an event that carries nothing but its kind, its
// client and its time, the client given by its place in Config.Clients
// (from 1, its ClientID).
func (j *Judge) ClientEvent(kind Kind, id int, at time.Duration) {
	j.feedClient(kind, id, at)
}

// ClientWorking, ClientLeft and ClientReleasing are ClientEvent of a
// Working, LeaveCS and Releasing event, which a run reports for every
// hold: read without an Event built for them (unless the history is
// recorded) nor a switch on a kind the caller knew.
func (j *Judge) ClientWorking(id int, at time.Duration) {
	if j.record != nil {
		j.feedClient(Working, id, at)
		return
	}
	j.byPlace[id-1].working = true
}

// ClientLeft is ClientEvent of a LeaveCS event (see ClientWorking).
func (j *Judge) ClientLeft(id int, at time.Duration) {
	if j.record != nil {
		j.feedClient(LeaveCS, id, at)
		return
	}
	c := &j.byPlace[id-1]
	j.holdDone(at, c)
	j.leaveCS(j.cfg.Clients[id-1], c)
}

// ClientReleasing is ClientEvent of a Releasing event (see ClientWorking).
func (j *Judge) ClientReleasing(id int, at time.Duration) {
	if j.record != nil {
		j.feedClient(Releasing, id, at)
		return
	}
	j.releasing(at, j.cfg.Clients[id-1], &j.byPlace[id-1])
}

// feedClient is ClientEvent as an Event, built in a frame of its own: the
// caller is on a client's coroutine stack at every hold (a coroutine
// stack that outgrows its first 2 KB is copied); so it is never inlined.
//
//go:noinline
func (j *Judge) feedClient(kind Kind, id int, at time.Duration) {
	j.Feed(&Event{At: at, Kind: kind, Client: j.cfg.Clients[id-1], ClientID: id})
}

// readClient reads a LeaveCS, Working or Releasing event of client, whose
// books are c.
func (j *Judge) readClient(kind Kind, client string, c *client, at time.Duration) {
	switch kind {
	case LeaveCS:
		j.holdDone(at, c)
		j.leaveCS(client, c)
	case Working:
		c.working = true
	case Releasing:
		j.releasing(at, client, c)
	}
}

// Metrics are the metrics so far (final after the Final event).
func (j *Judge) Metrics() Metrics {
	m := j.m
	m.FencingRejections = j.rejected
	m.LostUpdates = max(j.accepted-j.value, 0) + j.lostElsewhere()
	m.Safe = m.Violations == 0
	m.Throughput = j.throughput()
	return m
}

// FirstViolation explains the first violation in a sentence or two; "" when none.
func (j *Judge) FirstViolation() string { return j.first }

// StuckReason says which grant was left in force at the end; "" when none.
func (j *Judge) StuckReason() string { return j.stuckWhy }

// InCS lists the clients in their critical section now, in order of entry.
func (j *Judge) InCS() []string { return j.inCS }

// InCriticalSection reports whether client c is between a grant and its
// release, by the history.
func (j *Judge) InCriticalSection(c string) bool {
	cl := j.clients[c]
	return cl != nil && cl.inCS
}

// clientOf is the books of the client named name whose ClientID is id:
// by its place when the feeder gave it (the same books as by name), else
// by name.
func (j *Judge) clientOf(name string, id int) *client {
	if i := id - 1; i >= 0 && i < len(j.byPlace) {
		return &j.byPlace[i]
	}
	return j.client(name)
}

// owns reports whether grant g is e's client's: by its books when e
// gives the ClientID (a pointer compare), else by name.
func (j *Judge) owns(g *grant, e *Event) bool {
	if i := e.ClientID - 1; i >= 0 && i < len(j.byPlace) {
		return g.books == &j.byPlace[i]
	}
	return g.owner == e.Client
}

func (j *Judge) client(name string) *client {
	if j.last != nil && name == j.lastName {
		return j.last
	}
	c := j.clients[name]
	if c == nil {
		c = &client{}
		j.clients[name] = c
	}
	j.last, j.lastName = c, name
	return c
}

func (j *Judge) emit(proc, kind, id string, args ...sim.Arg) {
	switch {
	case j.cfg.Tell != nil:
		j.cfg.Tell(proc, kind, id, args)
	case j.cfg.Emit != nil:
		msg, _ := tracemsg.Render(id, args)
		j.cfg.Emit(proc, kind, msg)
	}
}

// clientFault reads a fault on a client (and the network around it).
func (j *Judge) clientFault(e *Event, c *client) {
	switch e.Kind {
	case Paused:
		c.paused, c.pausedSince = true, e.At
	case Resumed:
		c.paused = false
	case Hung:
		c.hung, c.hungSince = true, e.At
	case Unhung:
		c.hung = false
	case ClientClockJumped:
		c.clock.Jump(e.At, e.By)
	case ClientClockRate:
		c.clock.SetRate(e.At, e.Rate)
	case CutOff:
		if j.cutSince == nil {
			j.cutSince = map[string]time.Duration{}
		}
		j.cutSince[e.Client+"|"+e.Node] = e.At
	case Reconnected:
		delete(j.cutSince, e.Client+"|"+e.Node)
	}
}

func (j *Judge) enterCS(e *Event, c *client) {
	c.inCS, c.working = true, false
	c.granted, c.lastEnd = true, Phrase{}
	j.m.Acquired++
	if o := j.rival(e.Client); o != "" && !j.inEpisode(e.Client) {
		j.violation(e, o)
	}
	j.inCS = append(j.inCS, e.Client)
}

// violation is e's client entering while o is inside: a new episode. It
// is apart from enterCS, whose frame is on a client's coroutine stack at
// every grant (a coroutine stack that outgrows its first 2 KB is copied).
func (j *Judge) violation(e *Event, o string) {
	j.setEpisode(e.Client, true)
	j.m.Violations++
	id, args, p := j.explain(e.At, e.Client, o)
	msg, _ := tracemsg.Render(id, args)
	j.emit(e.Client, "VIOLATION", id, args...)
	if j.first == "" {
		j.first, j.firstP = msg, p
		j.firstAt = e.At
	}
}

func (j *Judge) leaveCS(name string, c *client) {
	if !c.inCS {
		return
	}
	c.inCS = false
	for i, x := range j.inCS {
		if x != name {
			continue
		}
		if last := len(j.inCS) - 1; i == last { // nearly always: one client in at a time
			j.inCS[i], j.inCS = "", j.inCS[:last]
		} else {
			j.inCS = append(j.inCS[:i], j.inCS[i+1:]...)
		}
		break
	}
	j.endEpisode(name)
}

// resourceEvent keeps the resource's books: a refused request is a fencing
// rejection; an applied write whose value does not exceed the count of
// applied writes so far has lost an update.
func (j *Judge) resourceEvent(e *Event) {
	switch {
	case !e.OK:
		j.rejected++
	case e.Kind == ResourceWrite && j.cfg.Resources != nil:
		j.wrote(e)
	case e.Kind == ResourceWrite:
		j.accepted++
		j.value = e.Value
	}
}

// finish computes the end-of-run metrics: a grant still in force (on a
// quorum of the lock nodes holding the key) whose owner is not in its
// critical section makes the run stuck.
func (j *Judge) finish(e *Event) {
	if j.finished {
		return
	}
	j.finished = true
	counts := map[string]int{}
	var owners []string
	for _, n := range e.Holding {
		g := j.nodes.grant(n)
		if g == nil {
			continue
		}
		if counts[g.owner] == 0 {
			owners = append(owners, g.owner)
		}
		counts[g.owner]++
	}
	for _, o := range owners {
		c := j.clients[o]
		if counts[o] < j.cfg.Quorum || c == nil {
			continue
		}
		if why := stuckState(c); why.ID != "" {
			j.m.Stuck = true
			j.stuckP = Phrase{ID: "stuck", Args: withPiece([]sim.Arg{sim.I("at_ns", int64(e.At)), sim.S("owner", o)}, "state", why)}
			j.stuckWhy = j.stuckP.String()
			return
		}
	}
}

// Finished reports whether the Final event has been read.
func (j *Judge) Finished() bool { return j.finished }
