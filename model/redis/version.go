package redis

import "time"

// How an expiry travels to a replica depends on the Redis version.
//
// Redis 7 propagates every relative expiry as an absolute one: SET ... PX n
// reaches replicas (and the AOF) as SET ... PXAT t, PEXPIRE as PEXPIREAT
// (redis/redis#8474, in 7.0). The replica keeps the master's instant and
// reads it on its own clock: a replica whose clock is ahead sees the key
// expire sooner, one whose clock is behind later, by the clocks' offset.
//
// Redis 6 sends the command as the client wrote it, SET ... PX n: the
// replica counts n from when it applies the write, on its own clock. The
// clocks' offset then does not matter; the replication delay adds to the
// key's life on the replica, and only a clock jump or drift after the write
// moves it.
//
// In both, a replica does not expire keys on its own: it waits for its
// master's DEL, and only answers reads as if the key were gone once it is
// past its expiry by the replica's clock (and starts expiring keys when
// promoted). The model deletes the key on the replica at that instant,
// which is what a reader and a promotion see. A full resync (RDB) carries
// absolute expiry times in every version.

// Versions are the values of redis.version.
var Versions = []int{6, 7}

// relativeExpiry reports whether the node's version propagates relative
// expiries (Redis 6).
func (n *Node) relativeExpiry() bool { return n.cfg.Version == 6 }

// asReplicated is the master's effect e as this replica stores it at true
// time now: as sent
// under Redis 7; under Redis 6 with its expiry counted from now, on this
// node's expiry clock, from the TTL the master's write left (e.TTL). A
// write that does not touch a TTL (effects replication of, say, HINCRBY)
// keeps the replica's own expiry in Redis 6; here it is re-counted from the
// master's remaining TTL, the same instant unless a clock jumped or
// drifted in between.
func (n *Node) asReplicated(now time.Duration, e Effect) Effect {
	if n.relativeExpiry() && e.Expires && !e.Deleted && e.TTL >= 0 {
		e.ExpireAt = n.st.ExpiryClock(now) + e.TTL
	}
	return e
}

// appliedString is how the trace shows effect e applied on this replica:
// the master's state, and under Redis 6 the expiry the replica counted.
func (n *Node) appliedString(e Effect) string {
	if !n.relativeExpiry() || !e.Expires || e.Deleted {
		return e.String()
	}
	k := n.KeyState(e.Key)
	if k.Deleted {
		return e.String() + " (PX " + e.TTL.String() + ": already expired here)"
	}
	return k.String() + " (PX " + e.TTL.String() + " counted from here, Redis 6)"
}
