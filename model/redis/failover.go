package redis

import (
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// CrashNode stops a node now; what it keeps depends on the persistence mode.
// Its replication links break: writes still on their way to its replicas
// are lost, and a crashed replica loses what was on its way to it.
func (w *Cluster) CrashNode(n *Node) {
	if !n.Up() {
		return
	}
	now := w.Now()
	// Writes due at this very instant have arrived (ties go to delivery):
	// what is lost is exactly what was made in the last replication_lag.
	for _, s := range n.downstream {
		s.flush()
	}
	n.Crash(now)
	n.crashedAt = now
	n.dropWaits()
	for _, s := range n.downstream {
		s.breakLink(sim.S("why", "cause-crashed"), sim.S("crashed", n.Name()))
	}
	if s := n.upstream; s != nil {
		s.breakLink(sim.S("why", "cause-crashed"), sim.S("crashed", n.Name()))
		s.master.forgetReplica(n, now)
	}
	w.sentinel()
}

// RestartNode brings a crashed node back with what its persistence kept.
// Its replication links resume with a full resync (the backlog was in
// memory). A former master whose shard failed over meanwhile comes back
// believing it is still the master, like a restarted Redis whose config was
// never rewritten, and is demoted as soon as it can reach the new master.
func (w *Cluster) RestartNode(n *Node) {
	n.Restart(w.Now())
	w.obs.Restarted(n)
	for _, s := range n.downstream {
		s.flush()
	}
	if s := n.upstream; s != nil {
		s.flush()
	}
	w.demoteStale()
	w.sentinel()
}

// Failover promotes a replica of shard i, as the failover fault (a manual
// SENTINEL FAILOVER) does: the first replica that is up. Writes it had not
// yet received are lost.
func (w *Cluster) Failover(i int) (*Node, error) {
	sh := w.Shards[i]
	for _, r := range sh.Replicas {
		if r.Up() {
			w.promote(sh, r, sim.S("why", "why-forced"))
			return r, nil
		}
	}
	return nil, &FailoverRefusal{Master: sh.Master.Name(), NoneUp: len(sh.Replicas) > 0}
}

// FailoverRefusal is why Failover could not promote a replica: the master
// has none, or none is up. Its trace line (faults) names it by ID.
type FailoverRefusal struct {
	Master string
	NoneUp bool // it has replicas, all down
}

// ID is the message id of the refusal's piece (model/tracemsg), whose
// {node} is Master.
func (e *FailoverRefusal) ID() string {
	if e.NoneUp {
		return "why-no-replica-up"
	}
	return "why-no-replica"
}

func (e *FailoverRefusal) Error() string {
	s, _ := tracemsg.Render(e.ID(), []sim.Arg{sim.S("node", e.Master)})
	return s
}

// promote makes replica r the master of shard sh. Its stream from the old
// master dies with whatever it had not applied. The other replicas follow
// the new master after a full resync. The old master, if it can reach the
// new one, is demoted at once; otherwise (down, or cut off by a partition)
// it stays a stale master that still accepts writes from the clients that
// reach it, until it can reach the new master (split brain). why is the
// trace's reason: the "why" argument naming its piece (why-forced,
// why-failover-after, why-sentinels) and the piece's own.
func (w *Cluster) promote(sh *Shard, r *Node, why ...sim.Arg) {
	now := w.Now()
	old := sh.Master
	if s := r.upstream; s != nil {
		s.flush() // what is due now has arrived; the rest is lost
	}
	w.detachReplica(r, sim.S("why", "cause-promoted"))
	r.SetReplica(false)
	r.refreshGood(now) // no replica yet: under min_replicas_to_write it refuses writes
	r.watch.reset()
	sh.Master = r
	sh.Replicas = removeNode(sh.Replicas, r)
	w.Tell(r.Name(), "promoted", "promoted", append([]sim.Arg{sim.S("node", r.Name()), sim.I("shard", int64(sh.Index+1)), sim.S("old", old.Name()),
		sim.S("master", old.Name())}, why...)...)
	w.obs.FailedOver(old, r)
	for _, x := range sh.Replicas {
		w.attachReplica(x, r, true)
	}
	for _, s := range append([]*replStream(nil), old.downstream...) {
		w.detachReplica(s.replica)
	}
	old.replacedBy, old.replacedAt = r, now
	sh.Stale = append(sh.Stale, old)
	if old.Up() && !w.Net.Connected(old.Name(), r.Name()) {
		w.Tell(old.Name(), "split-brain", "split-brain", sim.S("node", old.Name()), sim.S("master", r.Name()))
	}
	w.demoteStale()
	w.sentinel()
}

// demoteStale demotes every stale master that is up and can reach its
// shard's current master: it rejoins as a replica with a full resync, which
// discards whatever it accepted after it was replaced.
func (w *Cluster) demoteStale() {
	for _, sh := range w.Shards {
		for i := 0; i < len(sh.Stale); i++ {
			n := sh.Stale[i]
			if !n.Up() || !sh.Master.Up() || !w.Net.Connected(n.Name(), sh.Master.Name()) {
				continue
			}
			sh.Stale = removeNode(sh.Stale, n)
			i--
			w.rejoin(sh, n)
		}
	}
}

// rejoin makes n a replica of its shard's current master with a full resync.
func (w *Cluster) rejoin(sh *Shard, n *Node) {
	w.Tell(n.Name(), "rejoined", "rejoined", sim.S("node", n.Name()), sim.S("master", sh.Master.Name()), sim.I("replaced_ns", int64(n.replacedAt)))
	sh.Replicas = append(sh.Replicas, n)
	w.attachReplica(n, sh.Master, true)
	n.replacedBy = nil
}

// Stale reports whether n is a master that was replaced by a failover it
// has not yet learnt about (it still accepts writes).
func (n *Node) Stale() bool { return n.replacedBy != nil && !n.replica }

// ReplacedBy is the node promoted in a stale master's place, or nil.
func (n *Node) ReplacedBy() *Node {
	if !n.Stale() {
		return nil
	}
	return n.replacedBy
}

// Upstream is the master a replica follows, or nil.
func (n *Node) Upstream() *Node {
	if n.upstream == nil {
		return nil
	}
	return n.upstream.master
}

// ReplicationBacklog is how many writes are on their way from n's master to
// n (for display).
func (n *Node) ReplicationBacklog() int {
	if n.upstream == nil {
		return 0
	}
	return len(n.upstream.queue)
}

// NetChanged reacts to a partition starting or healing: stale masters that
// can now reach their replacement are demoted, held-back replication
// catches up, and the failover watchers re-evaluate.
func (w *Cluster) NetChanged() {
	w.demoteStale()
	w.flushStreams()
	w.sentinel()
}

func removeNode(ns []*Node, n *Node) []*Node {
	for i, x := range ns {
		if x == n {
			return append(ns[:i:i], ns[i+1:]...)
		}
	}
	return ns
}
