package redis

import (
	"time"

	"github.com/lockstep-sim/lockstep/model/store"
	"github.com/lockstep-sim/lockstep/sim"
)

// AckEvery is how often a replica tells its master how far it has applied
// the replication stream (REPLCONF ACK <offset>): Redis's replicationCron
// runs once a second and calls replicationSendAck on every run.
const AckEvery = time.Second

// DefaultMinReplicasMaxLag is Redis's min-replicas-max-lag default (10 s).
const DefaultMinReplicasMaxLag = 10 * time.Second

// IsNoReplicas reports whether err is the NOREPLICAS refusal a master
// short of good replicas gives a write (min-replicas-to-write).
func IsNoReplicas(err error) bool { return store.IsNoReplicas(err) }

// ackRecord is what a master knows of one replica from its acks: when the
// last one arrived, by the master's wall clock (Redis's repl_ack_time is
// server.unixtime, whole seconds).
type ackRecord struct {
	replica *Node
	at      time.Duration
}

// online records that replica r finished its sync with master n at true
// time now: Redis's putSlaveOnline sets repl_ack_time and refreshes the
// good count.
func (n *Node) online(r *Node, now time.Duration) {
	n.noteAck(r, now)
	n.refreshGood(now)
}

// forgetReplica drops replica r from master n's count at once: its
// connection closed (the replica process died), which Redis notices.
func (n *Node) forgetReplica(r *Node, now time.Duration) {
	for i := range n.acks {
		if n.acks[i].replica == r {
			n.acks = append(n.acks[:i:i], n.acks[i+1:]...)
			n.refreshGood(now)
			return
		}
	}
}

// noteAck records that r acknowledged at true time now.
func (n *Node) noteAck(r *Node, now time.Duration) {
	at := n.clock.Wall(now)
	for i := range n.acks {
		if n.acks[i].replica == r {
			n.acks[i].at = at
			return
		}
	}
	n.acks = append(n.acks, ackRecord{replica: r, at: at})
}

// goodReplicas counts the replicas whose last ack is at most
// min_replicas_max_lag old, in whole seconds of the master's wall clock, as
// Redis's refreshGoodSlavesCount does (lag = unixtime - repl_ack_time). A
// replica that follows another master now stops acking here and ages out;
// the master cannot know sooner.
func (n *Node) goodReplicas(now time.Duration) int {
	sec := n.clock.Wall(now) / time.Second
	lag := n.cfg.MinReplicasMaxLag / time.Second
	good := 0
	for _, a := range n.acks {
		if sec-a.at/time.Second <= lag {
			good++
		}
	}
	return good
}

// refreshGood recounts a master's good replicas and arms or lifts the
// NOREPLICAS refusal, tracing each change: Redis's refreshGoodSlavesCount,
// which runs in the once-a-second replicationCron and when a replica comes
// online or its connection closes; between those the count stands, so a
// fresh ack lifts a refusal only at the next cron. A promoted replica, or a
// restarted master, starts counting none.
func (n *Node) refreshGood(now time.Duration) {
	need := n.cfg.MinReplicasToWrite
	if need <= 0 || n.replica || !n.up {
		return
	}
	good := n.goodReplicas(now)
	refuse := good < need
	if refuse != n.st.NoReplicas() && n.emit != nil {
		// Redis logs nothing here; the trace says it once per change.
		if refuse {
			n.tell(n.Name(), "noreplicas", "noreplicas", sim.S("node", n.Name()), sim.I("good", int64(good)), sim.I("lag_ns", int64(n.cfg.MinReplicasMaxLag)), sim.I("need", int64(need)))
		} else {
			n.tell(n.Name(), "noreplicas", "noreplicas-end", sim.S("node", n.Name()), sim.I("good", int64(good)))
		}
	}
	n.st.SetNoReplicas(refuse)
}

// startAcks runs every node's replicationCron once per AckEvery of true
// time, for the whole run (Config.ReplicaAcks): a replica sends its ack, a
// master recounts its good replicas. Its cost is bounded by the run: one
// event per second plus one per replica's ack, at most about 3.2 million in
// a 24 h run with 9 masters of 4 replicas each.
func (w *Cluster) startAcks() {
	var tick func()
	tick = func() {
		now := w.Now()
		for _, n := range w.Nodes {
			if s := n.upstream; s != nil && n.Up() && !s.needSync {
				w.sendAck(s)
			}
			n.refreshGood(now)
		}
		w.K.After(AckEvery, tick)
	}
	w.K.After(AckEvery, tick)
}

// sendAck sends REPLCONF ACK <offset> from the stream's replica to its
// master: a message on the network, so a partition drops it and a slow or
// long link delays it.
func (w *Cluster) sendAck(s *replStream) {
	off := s.applied
	w.Net.Send(s.replica.Name(), s.master.Name(), func() { w.ackArrived(s, off) })
}

// ackArrived is a replica's ack reaching its master.
func (w *Cluster) ackArrived(s *replStream, off int64) {
	m := s.master
	if !m.Up() || s.dead || s.needSync {
		return // the connection it was sent on is gone
	}
	now := w.Now()
	m.noteAck(s.replica, now)
	s.acked = max(s.acked, off)
	w.answerWaits(m)
}
