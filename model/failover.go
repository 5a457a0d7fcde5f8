package model

import (
	"fmt"

	"github.com/lockstep-sim/lockstep/sim"
)

// CrashNode stops a node now; what it keeps depends on the persistence mode.
func (w *World) CrashNode(n *Node) {
	n.Crash(w.Now())
}

// RestartNode brings a crashed node back. A former master whose shard failed
// over meanwhile rejoins as a replica of the new master: a full resync
// discards whatever it had that the new master lacks.
func (w *World) RestartNode(n *Node) {
	now := w.Now()
	n.Restart(now)
	if sh := w.shardOf(n); sh != nil && sh.Master != n && !n.IsReplica() {
		w.rejoin(sh, n)
	}
}

// Failover promotes the first replica of shard i. Writes it had not yet
// received are lost. The old master, if it is up, is demoted at once and
// resynchronised from the new master; if it is down it rejoins on restart.
func (w *World) Failover(i int) (*Node, error) {
	sh := w.Shards[i]
	if len(sh.Replicas) == 0 {
		return nil, fmt.Errorf("%s has no replica to promote", sh.Master.Name())
	}
	old, promoted := sh.Master, sh.Replicas[0]
	promoted.SetReplica(false)
	sh.Master = promoted
	sh.Replicas = append(sh.Replicas[1:], old)
	w.Emit(promoted.Name(), "promoted", "%s is now the master of shard %d (was %s)", promoted.Name(), i+1, old.Name())
	if old.Up() {
		w.rejoin(sh, old)
	}
	return promoted, nil
}

// rejoin makes n a replica of its shard's current master with a full resync.
func (w *World) rejoin(sh *Shard, n *Node) {
	now := w.Now()
	n.SetReplica(true)
	if sh.Master.Up() {
		n.LoadSnapshot(now, sh.Master.Snapshot(now))
	}
	w.Emit(n.Name(), "rejoined", "%s rejoined as a replica of %s at %s; its unreplicated writes are discarded",
		n.Name(), sh.Master.Name(), sim.FormatTime(now))
}

// shardOf is the shard a node belongs to (as master or replica).
func (w *World) shardOf(n *Node) *Shard {
	for _, sh := range w.Shards {
		if sh.Master == n {
			return sh
		}
		for _, r := range sh.Replicas {
			if r == n {
				return sh
			}
		}
	}
	return nil
}
