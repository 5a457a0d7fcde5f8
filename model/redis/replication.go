package redis

import "time"

// ApplyEffects applies a master's effects on this replica at true time now.
// An absolute expiry is the same instant on the replica's own expiry clock,
// so a replica whose clock is ahead expires the key sooner, as in Redis. The
// replica logs them like its own writes. A down replica loses them.
func (n *Node) ApplyEffects(now time.Duration, effs []Effect) {
	if !n.up {
		return
	}
	n.advance(now)
	for _, e := range effs {
		n.applyEffect(now, e)
	}
}

func (n *Node) applyEffect(now time.Duration, e Effect) {
	e = n.asReplicated(now, e)
	if !n.st.WriteState(e) {
		// Already expired by this node's clock: the key is gone here.
		e = Effect{Key: e.Key, Deleted: true}
	}
	e.At = now
	n.aof.append(e)
}

// SetReplica makes the node a read-only replica (writes are answered with
// READONLY, also from inside a script; reads are served) or, with false, a
// master again (failover promotion).
func (n *Node) SetReplica(on bool) {
	n.replica = on
	n.acks = nil         // a replica counts no replicas; a promoted one starts afresh
	n.st.SetReadOnly(on) // preHook reads it on every command
}

// IsReplica reports whether the node is a read-only replica.
func (n *Node) IsReplica() bool { return n.replica }

// Snapshot is the node's whole dataset at true time now as effects sorted by
// key, for a full resync. Like Keys it only observes. A down node has none.
func (n *Node) Snapshot(now time.Duration) []Effect {
	if !n.up {
		return nil
	}
	return n.view(now)
}

// LoadSnapshot replaces this node's dataset with a master's Snapshot at true
// time now (full resync, e.g. an old master rejoining as a replica: its
// writes that never reached the new master are discarded). The log is
// rewritten to the new dataset.
func (n *Node) LoadSnapshot(now time.Duration, effs []Effect) {
	if !n.up {
		return
	}
	n.advance(now)
	n.st.Flush()
	var kept []Effect
	for _, e := range effs {
		if n.st.WriteState(e) {
			e.At = now
			kept = append(kept, e)
		}
	}
	n.aof.reset(kept)
}
