package redis

import (
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/model/store"
	"github.com/lockstep-sim/lockstep/sim"
)

// replBacklogLimit is how many writes a master keeps for one replica that
// cannot keep up (Redis's repl-backlog-size, 1 MB by default, counted here in
// writes: a lock write is a few dozen bytes). A replica that falls further
// behind, or whose master restarted (the backlog lives in memory), does a
// full resync when it can reach its master again.
const replBacklogLimit = 10000

// replStream is the ordered, asynchronous replication link from a master to
// one replica, as Redis runs it over one TCP connection:
//
//   - every write on the master is queued and applied on the replica
//     replication_lag later (plus any latency a slow fault adds to either
//     end), in the order the master made them;
//   - traffic obeys partitions: a write due while master and replica cannot
//     reach each other is held back, not lost (TCP retransmits), and applied,
//     in order, the moment the link heals;
//   - the queue dies with its master: on a crash of either end, or when the
//     replica is promoted or re-pointed, the writes not yet applied are lost
//     (and traced as such); the stream then needs a full resync;
//   - a full resync replaces the replica's dataset with the master's as it is
//     at that instant (the transfer time of the snapshot is not modelled).
type replStream struct {
	w        *Cluster
	master   *Node
	replica  *Node
	queue    []replBatch
	armed    bool      // a delivery event is pending for queue[0]
	timer    sim.Timer // that event
	dead     bool      // detached: the replica follows someone else now
	needSync bool      // the next contact is a full resync
	heldAt   time.Duration
	held     bool // a due write is held back by a partition (traced once)
	// Replication offsets, in the master's count of commands shipped
	// (Node.offset; acks.go, wait.go): the last the master pushed, the last
	// the replica applied, and the last the master heard it acknowledge
	// (REPLCONF ACK).
	pushed, applied, acked int64
}

// replBatch is the effects of one command, due at the replica at due.
type replBatch struct {
	due  time.Duration
	effs []Effect
	// getack: REPLCONF GETACK, which a WAIT puts in the stream behind the
	// writes it waits for; the replica answers it with an ack.
	getack bool
	off    int64 // the master's offset after this write
}

func (s *replStream) label() string { return s.master.Name() + " -> " + s.replica.Name() }

// attachReplica makes r a replica fed by master m. fullSync: r must first
// copy m's whole dataset (a rejoin, a reattach after a failover or a
// restart); false only when both start empty at the beginning of the run.
func (w *Cluster) attachReplica(r, m *Node, fullSync bool) {
	if r.upstream != nil { // (no cause built for a first attach)
		w.detachReplica(r, sim.S("why", "cause-follows"), sim.S("follows", m.Name()))
	}
	r.SetReplica(true)
	s := &replStream{w: w, master: m, replica: r, needSync: fullSync, pushed: m.offset}
	r.upstream = s
	m.downstream = append(m.downstream, s)
	r.watch.reset()
	if fullSync {
		s.flush()
	} else if w.Cfg.ReplicaAcks {
		m.online(r, w.Now()) // both empty and online from the start
	}
}

// detachReplica ends r's stream; the writes it had not yet applied are lost.
// cause (none: nothing traced) says why, for the trace: the "why" argument
// naming its piece (cause-crashed, cause-promoted, cause-follows) and the
// piece's own.
func (w *Cluster) detachReplica(r *Node, cause ...sim.Arg) {
	s := r.upstream
	if s == nil {
		return
	}
	r.upstream = nil
	s.dead = true
	s.timer.Stop()
	s.armed = false
	ds := s.master.downstream
	for i, x := range ds {
		if x == s {
			s.master.downstream = append(ds[:i:i], ds[i+1:]...)
			break
		}
	}
	s.drop(cause)
}

// drop loses the queued writes, tracing them when there were any (and a
// cause).
func (s *replStream) drop(cause []sim.Arg) {
	if len(s.queue) > 0 && len(cause) > 0 {
		var lost []string
		for _, b := range s.queue {
			for _, e := range b.effs {
				lost = append(lost, e.String())
			}
		}
		s.w.Tell(s.replica.Name(), "repl-lost", "repl-lost", append([]sim.Arg{sim.S("link", s.label()), sim.I("writes", int64(len(lost))),
			sim.S("master", s.master.Name()), sim.S("node", s.replica.Name()), sim.S("lost", strings.Join(lost, "; "))}, cause...)...)
	}
	s.queue = nil
	s.timer.Stop()
	s.armed = false
	s.held = false
}

// breakLink is a crash of either end: the queue is lost and the next contact
// is a full resync (the master's backlog, or the replica's offset, is gone).
func (s *replStream) breakLink(cause ...sim.Arg) {
	s.drop(cause)
	s.needSync = true
}

// push queues the effects of one command on the master.
func (s *replStream) push(effs []Effect) {
	if s.dead {
		return
	}
	s.pushed = s.master.offset
	if s.needSync {
		return // a full resync will carry them
	}
	s.enqueue(replBatch{effs: effs, off: s.pushed})
}

// pushGetAck puts REPLCONF GETACK into the stream (WAIT).
func (s *replStream) pushGetAck() {
	if !s.dead && !s.needSync {
		s.enqueue(replBatch{getack: true})
	}
}

// enqueue queues b, due replication_lag (plus slow links) from now.
func (s *replStream) enqueue(b replBatch) {
	now := s.w.Now()
	due := now + s.w.Cfg.ReplicationLag + s.w.Net.ExtraLatency(s.master.Name(), s.replica.Name())
	if n := len(s.queue); n > 0 && s.queue[n-1].due > due {
		due = s.queue[n-1].due // ordered: never overtake an earlier write
	}
	b.due = due
	s.queue = append(s.queue, b)
	if len(s.queue) > replBacklogLimit {
		s.queue = nil
		s.needSync = true
		s.w.Tell(s.replica.Name(), "repl-backlog", "repl-backlog", sim.S("link", s.label()), sim.I("limit", replBacklogLimit))
		return
	}
	s.arm()
}

// arm schedules the delivery of the head of the queue.
func (s *replStream) arm() {
	if s.armed || s.dead || len(s.queue) == 0 {
		return
	}
	s.armed = true
	s.timer = s.w.K.At(s.queue[0].due, func() {
		s.armed = false
		s.flush()
	})
}

// flush applies what is due, if the link is up: a pending full resync
// first, then every due write in order. It is called when a write falls due,
// when the network changes and when either end restarts.
func (s *replStream) flush() {
	w := s.w
	if s.dead || !s.master.Up() || !s.replica.Up() {
		return
	}
	now := w.Now()
	if !w.Net.Connected(s.master.Name(), s.replica.Name()) {
		if !s.held && (s.needSync || (len(s.queue) > 0 && s.queue[0].due <= now)) {
			s.held, s.heldAt = true, now
			w.Tell(s.replica.Name(), "repl-held", "repl-held", sim.S("link", s.label()))
		}
		return
	}
	if s.needSync {
		s.needSync = false
		s.held = false
		w.fullSync(s.replica, s.master)
		s.applied = s.pushed // the snapshot holds every write so far
		if w.Cfg.ReplicaAcks {
			s.master.online(s.replica, now)
		}
	}
	var applied []string
	var last store.Effect
	for len(s.queue) > 0 && s.queue[0].due <= now {
		b := s.queue[0]
		s.queue = s.queue[1:]
		if b.getack {
			w.sendAck(s)
			continue
		}
		s.applied = b.off
		s.replica.ApplyEffects(now, b.effs)
		for _, e := range b.effs {
			applied = append(applied, s.replica.appliedString(e))
			last = e
		}
		w.obs.Replicated(s.replica, s.master, b.effs)
	}
	if len(s.queue) == 0 {
		s.queue = nil
	}
	if len(applied) > 0 {
		w.Tell(s.replica.Name(), "replicated", "replicated", replicatedArgs(s, &last, strings.Join(applied, "; "))...)
	}
	s.held = false
	s.arm()
}

// fullSync replaces r's dataset with m's as it is now, tracing what r had
// that m lacks: those writes are discarded.
func (w *Cluster) fullSync(r, m *Node) {
	now := w.Now()
	snap := m.Snapshot(now)
	var discarded []string
	for _, old := range r.view(now) {
		kept := false
		for _, e := range snap {
			if e.Key == old.Key {
				kept = e.SameState(&old)
				break
			}
		}
		if !kept {
			discarded = append(discarded, old.String())
		}
	}
	r.LoadSnapshot(now, snap)
	args := []sim.Arg{sim.S("node", r.Name()), sim.S("master", m.Name()), sim.I("keys", int64(len(snap)))}
	if len(discarded) > 0 {
		w.Tell(r.Name(), "resync", "resync-discards", append(args, sim.S("discarded", strings.Join(discarded, "; ")))...)
	} else {
		w.Tell(r.Name(), "resync", "resync", args...)
	}
	w.obs.Resynced(r, m)
}

// Ship sends the effects of the last command on n to the replicas it feeds.
// A replica has no outbox; a stale master (replaced while cut off) feeds no
// one, so what it accepts is never replicated.
func (w *Cluster) Ship(n *Node, effs []Effect) {
	if len(effs) > 0 {
		n.offset++
		for _, s := range n.downstream {
			s.push(effs)
		}
	}
	if len(n.downstream) == 0 && n.outbox == nil {
		// Nobody kept them: the next write reuses the storage (and
		// overwrites what it still refers to; a clear here was a memclr
		// per write). Also after a command that wrote nothing (a refused
		// SET NX): dropping the empty outbox's storage there made the
		// next write allocate anew (1,303 of counter-30x200-loopback's
		// 2,253 allocations a run).
		n.outbox = effs[:0]
	}
}

// flushStreams retries every replication link (after a network change).
func (w *Cluster) flushStreams() {
	for _, n := range w.Nodes {
		if n.upstream != nil {
			n.upstream.flush()
		}
	}
}

// replicatedArgs are the "replicated" message's arguments: the replica, its
// master, and the last key the batch wrote as it stands after it (key,
// owner token, deleted 0/1, expire_at_ns by the master's expiry clock, -1
// none), which is what a trace reader needs to show a replica's lock key;
// then what the line says besides: the writes applied (as the trace writes
// keys) and, when the link had been held back, the piece saying since when.
func replicatedArgs(s *replStream, e *store.Effect, applied string) []sim.Arg {
	del, exp := int64(0), int64(-1)
	if e.Deleted {
		del = 1
	}
	if e.Expires {
		exp = int64(e.ExpireAt)
	}
	held := ""
	if s.held {
		held = "repl-caught-up"
	}
	return []sim.Arg{sim.S("node", s.replica.Name()), sim.S("master", s.master.Name()), sim.S("key", e.Key),
		sim.S("owner", e.Owner()), sim.I("deleted", del), sim.I("expire_at_ns", exp),
		sim.S("applied", applied), sim.S("held", held), sim.I("held_ns", int64(s.heldAt))}
}
