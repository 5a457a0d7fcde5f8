package model

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Effect is the state of one key after a write, as the append-only log keeps
// it and as a master sends it to its replicas. It is the key's whole
// post-state rather than the command, so applying it is idempotent and a
// replica never re-runs a script.
type Effect struct {
	At      time.Duration // true time of the write on the node that made it
	Key     string
	Deleted bool   // the key no longer exists (DEL, expiry, a script's DEL)
	Type    string // "string", "hash", "list", "set", "zset"
	Value   string // for strings
	// Fields: hash field,value pairs sorted by field; list items in order;
	// set members sorted; zset member,score pairs sorted by member.
	Fields []string
	// ExpireAt is the absolute expiry by the writing node's expiry clock
	// (Redis >= 7 propagates expiry as an absolute PEXPIREAT); meaningful
	// only when Expires.
	ExpireAt time.Duration
	Expires  bool
}

// sameState reports whether two states of the same key are equal (At aside).
func (e Effect) sameState(o Effect) bool {
	return e.Deleted == o.Deleted && e.Type == o.Type && e.Value == o.Value &&
		e.Expires == o.Expires && (!e.Expires || e.ExpireAt == o.ExpireAt) &&
		slices.Equal(e.Fields, o.Fields)
}

// display is the value in KeyInfo form.
func (e Effect) display() string {
	switch e.Type {
	case "string":
		return e.Value
	case "hash", "zset":
		var b strings.Builder
		for i := 0; i+1 < len(e.Fields); i += 2 {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(e.Fields[i])
			b.WriteByte('=')
			b.WriteString(e.Fields[i+1])
		}
		return b.String()
	case "list", "set":
		return strings.Join(e.Fields, " ")
	}
	return e.Value
}

// String is the effect for a trace: `lock:x = "A:1" expires@30.001s`,
// `lock:x deleted`.
func (e Effect) String() string {
	if e.Deleted {
		return e.Key + " deleted"
	}
	s := fmt.Sprintf("%s = %q", e.Key, e.display())
	if e.Type != "string" {
		s += " (" + e.Type + ")"
	}
	if e.Expires {
		s += " expires@" + e.ExpireAt.String()
	}
	return s
}

// TakeEffects returns, in order, the effects produced since the previous
// call and forgets them: the writes of Do, and the expiry deletions noticed
// whenever the node's time advanced (Do, Exists, JumpClock, SetClockRate,
// ApplyEffects). The simulator calls it after every command on a master and
// delivers the result to the replicas replication_lag later. Effects
// accumulate until taken, so whoever advanced the node first, no expiry is
// lost to replication.
func (n *Node) TakeEffects() []Effect {
	out := n.outbox
	n.outbox = nil
	return out
}

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
	if e.Deleted || (e.Expires && e.ExpireAt < n.lastE) {
		// Already expired by this node's clock: the key is gone here.
		n.m.Del(e.Key)
		delete(n.edge, e.Key)
		e = Effect{Key: e.Key, Deleted: true}
	} else {
		n.writeState(e, e.ExpireAt-n.lastE)
	}
	e.At = now
	n.aof.append(e)
}

// SetReplica makes the node a read-only replica (writes are answered with
// READONLY, also from inside a script; reads are served) or, with false, a
// master again (failover promotion).
func (n *Node) SetReplica(on bool) {
	n.replica = on // preHook reads it on every command
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
	n.m.FlushAll()
	n.edge = nil
	var kept []Effect
	for _, e := range effs {
		if e.Deleted || (e.Expires && e.ExpireAt < n.lastE) {
			continue
		}
		n.writeState(e, e.ExpireAt-n.lastE)
		e.At = now
		kept = append(kept, e)
	}
	n.aof.reset(kept)
}
