package model

import (
	"time"

	"github.com/lockstep-sim/lockstep/model/store"
)

// Redlock is the multi-master lock of the redis.io distributed-locks page
// (seed 003 §11.4.3): N independent masters, quorum N/2+1. One attempt:
//
//  1. read the client's clock;
//  2. SET key token NX PX ttl on every master, one after another (or all at
//     once with parallel), each bounded by request_timeout so a dead node
//     cannot stall the attempt;
//  3. read the clock again: elapsed = after − before;
//  4. validity = ttl − elapsed − (ttl × drift_factor + 2 ms); the lock is
//     held only with a quorum of OKs and validity > 0, until start+validity;
//  5. otherwise release on every master, also those that seemed to fail (a
//     timeout may be a lost reply of a SET that did run).
//
// The validity check comes after the replies on purpose: a client that is
// paused while they are in flight sees the pause in elapsed and gives up
// (Kleppmann's K4, antirez's answer). A pause after step 4 is another matter
// (K1): nothing in the algorithm can see it.
//
// With fencing: token each node also INCRs a counter in the same script, and
// the lease's token is the largest value among the nodes that granted. That
// is the obvious recipe and it is not a safe fencing token: the counters live
// on nodes that can forget (restart empty, fail over), so two grants can carry
// the same or even a decreasing token. fencing: cas needs nothing from the
// lock: the resource checks the lease's random token instead (resource.go).
//
// This file is the algorithm only. What an attempt looked like is told to
// observers (redlock_attempt.go): the trace's narrator (redlock_trace.go)
// and whoever watches (AttemptLog).
type Redlock struct {
	cfg LockConfig
	obs []RedlockObserver // the narrator first
	// last is each client's attempt record, reused by the next (begin):
	// observers that keep one copy it, and AttemptLog keeps the latest.
	last map[*Client]*Attempt
}

func init() {
	RegisterStrategy(StrategyRedlock, func(c LockConfig) Strategy { return newRedlock(c) })
}

func newRedlock(c LockConfig) *Redlock {
	if c.NodeTimeout <= 0 {
		c.NodeTimeout = DefaultNodeTimeout
	}
	return &Redlock{cfg: c, obs: []RedlockObserver{narrator{}}}
}

// Defaults of the reference implementations, used when the configuration
// leaves them out (a Config built in code rather than loaded).
const (
	// DefaultNodeTimeout is how long Redlock waits for one node's reply (the
	// format's lock.redlock.request_timeout default).
	DefaultNodeTimeout = 50 * time.Millisecond
	// clockSlack is the fixed part of the drift allowance: redis.io adds 2 ms
	// for the granularity of the nodes' expiry clocks.
	clockSlack = 2 * time.Millisecond
)

// Without a retry block Redlock retries on its own, as redlock-rb, redlock-py
// and the redis.io text do: a few attempts, each after a random delay so that
// clients that collided do not collide again. The delay is drawn from the
// client's seeded stream. With a retry block the client's retry loop governs
// and an attempt is exactly one attempt.
const (
	defaultAttempts   = 3
	defaultRetryDelay = 200 * time.Millisecond // uniform in [0, this)
)

// Name is "redlock".
func (r *Redlock) Name() string { return StrategyRedlock }

// Quorum is N/2+1 of the shards' masters: the one place it is computed
// (attempts, renewals, the judge and the TUI all ask here).
func (r *Redlock) Quorum(w *World) int { return len(w.Shards)/2 + 1 }

// LockNodes are the current masters, one per shard (after a failover, the
// promoted replica).
func (r *Redlock) LockNodes(w *World) []*Node {
	out := make([]*Node, len(w.Shards))
	for i, sh := range w.Shards {
		out[i] = sh.Master
	}
	return out
}

// Validity is the redis.io formula: what is left of ttl after the time the
// attempt took and an allowance for the nodes' clocks running fast.
func Validity(ttl, elapsed time.Duration, driftFactor float64) time.Duration {
	drift := time.Duration(float64(ttl)*driftFactor) + clockSlack
	return ttl - elapsed - drift
}

// masters are the nodes the client sends to, in shard order.
func (r *Redlock) masters(t *Thread) []*Node {
	w := t.World()
	out := make([]*Node, len(w.Shards))
	for i := range w.Shards {
		out[i] = t.master(i)
	}
	return out
}

// Acquire runs one attempt, or with no retry block Redlock's own few
// attempts (see defaultAttempts).
func (r *Redlock) Acquire(t *Thread, l *Lease) bool {
	attempts := 1
	if r.cfg.Retry == nil && !r.nested(t, l) {
		attempts = defaultAttempts
	}
	for i := 1; ; i++ {
		if r.attempt(t, l) {
			return true
		}
		if i >= attempts {
			return false
		}
		d := time.Duration(t.c.rng.Int64N(int64(defaultRetryDelay)))
		narrator{}.retry(t.c, d, i+1, attempts)
		t.Sleep(d)
		l.Start = t.Wall()
	}
}

// nested reports whether l is a re-acquisition inside a hold of the same
// token: then the keys already there are ours and must not be released on
// failure (a non-reentrant lock simply refuses itself).
func (r *Redlock) nested(t *Thread, l *Lease) bool {
	cur := t.c.lease
	return cur != nil && cur.Token == l.Token
}

// attempt is steps 1-5 of the algorithm, once.
func (r *Redlock) attempt(t *Thread, l *Lease) bool {
	nodes := r.masters(t)
	a := r.begin(t, l, nodes)
	var granted []*Node
	r.each(t, nodes, OpAcquire, r.acquireArgs(l.Token), func(i int, res rpcResult) {
		r.answered(t.c, a, i, classify(nodes[i], res))
		if a.Nodes[i].Outcome == OutcomeOK {
			granted = append(granted, nodes[i])
		}
	})
	if r.count(t, l, a) {
		l.Nodes, l.Until, l.Fence = granted, l.Start+a.Validity, a.maxFence()
		return true
	}
	if !a.Nested {
		r.releaseAll(t, nodes, l.Token)
	}
	return false
}

// acquireArgs is step 2's command: SET NX PX, or with fencing: token the
// script that also INCRs the node's counter.
func (r *Redlock) acquireArgs(token string) []string {
	key, ttl := r.cfg.Key, msArg(r.cfg.TTL)
	if r.cfg.Fencing == "token" {
		return []string{"EVAL", store.ScriptFencedAcquire, "2", key, key + ":fence", token, ttl}
	}
	return []string{"SET", key, token, "NX", "PX", ttl}
}

// count is steps 3 and 4: elapsed by the client's clock, the validity, and
// whether a quorum granted in time.
func (r *Redlock) count(t *Thread, l *Lease, a *Attempt) bool {
	a.Elapsed = t.Wall() - l.Start
	a.Validity = Validity(r.cfg.TTL, a.Elapsed, r.cfg.DriftFactor)
	a.Done = true
	a.OK = a.Granted >= a.Quorum && a.Validity > 0
	a.Nested = r.nested(t, l)
	for _, o := range r.obs {
		o.Counted(t.c, a)
	}
	return a.OK
}

// Release is the compare-and-delete script on every master: the client does
// not know for sure which nodes hold its key.
func (r *Redlock) Release(t *Thread, l *Lease) {
	r.releaseAll(t, r.masters(t), l.Token)
}

func (r *Redlock) releaseAll(t *Thread, nodes []*Node, token string) {
	r.each(t, nodes, OpRelease, []string{"EVAL", store.ScriptRelease, "1", r.cfg.Key, token}, nil)
}

// Renew is the watchdog's extension: check-and-PEXPIRE on every master. It
// counts only if a quorum extended the key, the old lease had not run out
// before the replies were read, and the new validity is positive.
func (r *Redlock) Renew(t *Thread, l *Lease) bool {
	nodes := r.masters(t)
	start := t.Wall()
	rn := Renewal{Of: len(nodes), Quorum: r.Quorum(t.World()), Until: l.Until}
	r.each(t, nodes, OpRenew, []string{"EVAL", store.ScriptRenew, "1", r.cfg.Key, l.Token, msArg(r.cfg.TTL)},
		func(_ int, res rpcResult) {
			if res.err == nil && res.reply == 1 {
				rn.Extended++
			}
		})
	now := t.Wall()
	rn.Late = l.Until >= 0 && now >= l.Until
	rn.Validity = Validity(r.cfg.TTL, now-start, r.cfg.DriftFactor)
	if rn.Extended < rn.Quorum || rn.Late || rn.Validity <= 0 {
		narrator{}.renewRefused(t.c, rn)
		return false
	}
	l.Until = start + rn.Validity
	return true
}

// each sends args to every node, in parallel or one after another as
// configured, and calls onReply (if not nil) for each node in node order
// once its reply or timeout has been read by the client.
func (r *Redlock) each(t *Thread, nodes []*Node, op Op, args []string, onReply func(int, rpcResult)) {
	if r.cfg.Parallel {
		res := t.callAll(nodes, op, r.cfg.NodeTimeout, args)
		if onReply != nil {
			for i := range res {
				onReply(i, res[i])
			}
		}
		return
	}
	for i, n := range nodes {
		reply, err := t.CallTimeout(n, op, r.cfg.NodeTimeout, args...)
		if onReply != nil {
			onReply(i, rpcResult{reply, err})
		}
	}
}
