package model

import (
	"math"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// Bounds for Node.minExpire.
const (
	noExpiry         = time.Duration(math.MaxInt64) // no key has a TTL
	minExpireUnknown = time.Duration(math.MinInt64) // rescan on the next advance
)

// readCommands are commands known not to write, so they leave minExpire
// valid. Anything neither here nor in writeCommands (RESTORE, SWAPDB, MOVE,
// SORT ... STORE, ...) may give a key a TTL without naming it and
// invalidates the bound.
var readCommands = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(`GET MGET STRLEN GETRANGE EXISTS TYPE TTL PTTL
		EXPIRETIME PEXPIRETIME HGET HMGET HGETALL HKEYS HVALS HLEN HEXISTS HSTRLEN
		LINDEX LLEN LRANGE LPOS SCARD SISMEMBER SMISMEMBER SMEMBERS ZSCORE ZMSCORE
		ZCARD ZRANK ZREVRANK ZRANGE ZREVRANGE ZRANGEBYSCORE ZCOUNT KEYS SCAN DBSIZE
		PING ECHO TIME INFO WATCH UNWATCH MULTI DISCARD SCRIPT SELECT`) {
		m[c] = true
	}
	return m
}()

// expiryKnown reports whether, after cmd ran (outside MULTI), minExpire is
// still a lower bound: the command wrote nothing, or wrote only the keys Do
// knows it touched (whose new expiry Do folded in). A script in real Lua may
// write keys it did not declare; the fast path's twins never do. EXEC runs
// queued commands Do did not look at.
func expiryKnown(cmd string, isWrite, fastDone bool) bool {
	switch {
	case fastDone:
		return true
	case cmd == "EVAL" || cmd == "EVALSHA" || cmd == "EXEC":
		return false
	case isWrite:
		return true
	}
	return readCommands[cmd]
}

// Expiry is a key that a clock fault made expire, for the trace:
// "lock:x expired 19.1s early".
type Expiry struct {
	Key   string
	Early time.Duration // TTL it still had by the node's clock when the jump removed it
}

// expiryClock is the reading Redis compares key expiry with: the wall clock
// (real Redis), or the monotonic one with `clock: monotonic`.
func (n *Node) expiryClock(now time.Duration) time.Duration {
	if n.cfg.Monotonic {
		return n.clock.Mono(now)
	}
	return n.clock.Wall(now)
}

// advance brings the node to true time now. miniredis keeps TTLs as
// durations that only FastForward decreases, while Redis keeps absolute
// expiry times and compares them with its clock; keeping every TTL equal to
// (absolute expiry - expiry clock) makes the two agree:
//   - the clock moved forward by d (time passing at any rate, or a forward
//     wall jump): every TTL shrinks by d;
//   - the clock moved back by d (backward wall jump): every TTL grows by d.
//
// TIME, PXAT and EXAT follow the wall clock in both modes. It returns the
// keys that expired, with the TTL they had left.
func (n *Node) advance(now time.Duration) []Expiry {
	// A node is usually advanced several times at the same instant (the
	// checker's look before a command, the command, the look after); only
	// tell miniredis the time when it changed. Only boot sets it otherwise.
	if wall := n.clock.Wall(now); wall != n.lastWall {
		n.m.SetTime(Epoch.Add(wall))
		n.lastWall = wall
	}
	e := n.expiryClock(now)
	d := e - n.lastE
	n.lastE = e
	switch {
	case d > 0:
		return n.forward(now, d)
	case d < 0:
		n.backward(-d)
	}
	return nil
}

// forward runs the expiry clock d > 0 ahead. Keys whose TTL is below d
// expire (recorded as deletions, as Redis propagates a DEL on expiry). Keys
// whose TTL is exactly d reach their expiry instant, where Redis still has
// them; they get 1ns extra so miniredis keeps them, and are marked as edge
// keys (true TTL 0) until the clock moves on.
func (n *Node) forward(now, d time.Duration) []Expiry {
	if n.lastE < n.minExpire {
		// Every key expires after the new reading: nothing to expire and
		// no edge key (an edge key's expiry is the old reading, below the
		// bound), so skip listing and sorting the keys. Telling miniredis
		// can wait too (see lag), unless a hash field may have a TTL of
		// its own, which the bound does not cover.
		if n.fieldTTLs {
			n.m.FastForward(d)
		} else {
			n.lag += d
		}
		n.edge = nil
		return nil
	}
	n.syncTTLs()
	var expired []Expiry
	least := noExpiry // the exact bound after this advance
	var edge map[string]bool
	for _, k := range n.m.Keys() {
		ttl, ok := n.trueTTL(k)
		if !ok {
			continue
		}
		switch {
		case ttl < d:
			expired = append(expired, Expiry{Key: k, Early: ttl})
			continue
		case ttl == d:
			n.m.SetTTL(k, d+1)
			if edge == nil {
				edge = map[string]bool{}
			}
			edge[k] = true
		}
		// n.lastE is already the new reading, d past the TTLs' base.
		least = min(least, n.lastE+ttl-d)
	}
	n.m.FastForward(d)
	n.edge = edge
	n.minExpire = least
	for _, x := range expired {
		n.record(now, Effect{Key: x.Key, Deleted: true})
	}
	return expired
}

// backward moves the expiry clock back by b > 0: the absolute expiry of
// every key (and hash field) stays where it was, so its TTL grows by b.
// SetTTL bumps the key's version, so a WATCH across a backward jump fails
// where Redis would let it pass; no lock recipe here uses WATCH.
func (n *Node) backward(b time.Duration) {
	n.syncTTLs()
	for _, k := range n.m.Keys() {
		if ttl, ok := n.trueTTL(k); ok {
			n.m.SetTTL(k, ttl+b)
		}
		if n.m.Type(k) == "hash" {
			fields, _ := n.m.HKeys(k)
			for _, f := range fields {
				if ft := n.m.HTTL(k, f); ft > 0 {
					n.m.HExpire(k, f, ft+b)
				}
			}
		}
	}
	n.edge = nil
}

// trueTTL is key k's remaining time by the expiry clock, and whether it has
// one at all (miniredis reports 0 for "no TTL"; a stored TTL is never 0,
// since miniredis deletes the key then). An edge key stored with 1ns has
// true TTL 0.
func (n *Node) trueTTL(k string) (time.Duration, bool) { return n.trueTTLIn(n.db(), k) }

// trueTTLIn is trueTTL with the node's DB already in hand.
func (n *Node) trueTTLIn(db *miniredis.RedisDB, k string) (time.Duration, bool) {
	t := db.TTL(k)
	if t <= 0 {
		return 0, false
	}
	t -= n.lag
	if t == 1 && n.edge[k] {
		return 0, true
	}
	return t, true
}

// syncTTLs tells miniredis the time its TTLs lag behind (see Node.lag).
// Called before anything else writes a TTL or runs a command in miniredis.
// No key expires here: while lag grows every key expires after the reading
// it was grown to, so FastForward(lag) at once leaves miniredis exactly as
// the FastForward of each step would have.
func (n *Node) syncTTLs() {
	if n.lag != 0 {
		n.m.FastForward(n.lag)
		n.lag = 0
	}
}

// noFieldTTLs reports whether cmd is known not to give a hash field a TTL
// of its own (HEXPIRE and friends do; a script in Lua or a transaction
// might).
func noFieldTTLs(cmd string, isWrite bool, spec keySpec) bool {
	return (isWrite && spec != keysScript) || readCommands[cmd]
}

// setTTL gives key k (which must exist) a true TTL of ttl >= 0.
func (n *Node) setTTL(k string, ttl time.Duration) {
	n.syncTTLs()
	n.minExpire = min(n.minExpire, n.lastE+ttl)
	if ttl == 0 {
		n.m.SetTTL(k, 1)
		if n.edge == nil {
			n.edge = map[string]bool{}
		}
		n.edge[k] = true
		return
	}
	n.m.SetTTL(k, ttl)
	delete(n.edge, k)
}

// JumpClock steps the node's wall clock by `by` at true time now (fault
// clock_jump). With the wall expiry clock a forward jump expires every key
// with less than `by` left, immediately; those are returned sorted by key.
// A backward jump makes every key live |by| longer. With a monotonic expiry
// clock only TIME changes. The clock keeps running while the node is down,
// so a jump then still counts after restart.
func (n *Node) JumpClock(now, by time.Duration) []Expiry {
	if !n.up {
		n.clock.Jump(now, by)
		return nil
	}
	n.advance(now)
	n.clock.Jump(now, by)
	return n.advance(now)
}

// SetClockRate makes the node's clock run rate× true speed from now on
// (fault clock_drift): TTLs then run down rate× as fast in true time.
func (n *Node) SetClockRate(now time.Duration, rate float64) {
	if n.up {
		n.advance(now)
	}
	n.clock.SetRate(now, rate)
}
