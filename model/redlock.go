package model

import (
	"fmt"
	"github.com/lockstep-sim/lockstep/model/store"
	"strconv"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
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
type Redlock struct {
	cfg LockConfig
	// last is each client's most recent attempt, for snapshots and the TUI.
	// Looked up by name only; its iteration order never reaches output.
	last map[string]*Attempt
}

func init() {
	RegisterStrategy(StrategyRedlock, func(c LockConfig) Strategy { return newRedlock(c) })
}

func newRedlock(c LockConfig) *Redlock {
	if c.NodeTimeout <= 0 {
		c.NodeTimeout = DefaultNodeTimeout
	}
	return &Redlock{cfg: c, last: map[string]*Attempt{}}
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

// Outcome is what one node answered in an attempt, as the client saw it.
type Outcome string

// Per-node outcomes.
const (
	OutcomePending Outcome = "pending" // not asked yet, or no answer read yet
	OutcomeOK      Outcome = "ok"      // the node stored our token
	OutcomeTaken   Outcome = "taken"   // someone else's key is there
	OutcomeTimeout Outcome = "timeout" // no reply within request_timeout (the SET may still have run)
	OutcomeError   Outcome = "error"   // an error reply: -LOADING, -READONLY ...
)

// traceKind is the kind of the trace line that reports outcome o of one
// node ("node-" and the outcome), without building it on every line.
func (o Outcome) traceKind() string {
	switch o {
	case OutcomeOK:
		return "node-ok"
	case OutcomeTaken:
		return "node-taken"
	case OutcomeTimeout:
		return "node-timeout"
	case OutcomeError:
		return "node-error"
	}
	return "node-" + string(o)
}

// NodeOutcome is one node's part in an attempt.
type NodeOutcome struct {
	Node    string
	Outcome Outcome
	Fence   int64  // with fencing: token, the node's counter after its INCR
	Detail  string // the error reply, for OutcomeError
}

// Attempt is one Redlock acquisition attempt as the client saw it: the
// per-node outcomes in node order and the verdict. Times are the client's
// clock.
type Attempt struct {
	Token    string
	Start    time.Duration
	Nodes    []NodeOutcome
	Quorum   int
	Granted  int           // nodes that answered OK
	Elapsed  time.Duration // by the client's clock; valid once Done
	Validity time.Duration // ttl − elapsed − drift; valid once Done
	Done     bool          // the replies have been counted
	OK       bool          // quorum and validity > 0: the client holds the lock
}

// Name is "redlock".
func (r *Redlock) Name() string { return StrategyRedlock }

// Quorum is N/2+1 of the shards' masters.
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

// LastAttempt is a copy of the client's most recent attempt, in progress or
// finished; false when it has made none.
func (r *Redlock) LastAttempt(client string) (Attempt, bool) {
	a := r.last[client]
	if a == nil {
		return Attempt{}, false
	}
	cp := *a
	cp.Nodes = append([]NodeOutcome(nil), a.Nodes...)
	return cp, true
}

// RedlockAttempt is the client's latest Redlock attempt in w; false when the
// world does not run Redlock or the client has made no attempt.
func RedlockAttempt(w *World, client string) (Attempt, bool) {
	r, ok := w.strategy.(*Redlock)
	if !ok {
		return Attempt{}, false
	}
	return r.LastAttempt(client)
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
		t.c.w.Emit(t.c.Name, "retry", "Redlock retries in %s (random delay, attempt %d of %d)", d, i+1, attempts)
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
	w, c := t.World(), t.Client()
	nodes := r.masters(t)
	a := &Attempt{Token: l.Token, Start: l.Start, Quorum: len(nodes)/2 + 1, Nodes: make([]NodeOutcome, len(nodes))}
	for i, n := range nodes {
		a.Nodes[i] = NodeOutcome{Node: n.Name(), Outcome: OutcomePending}
	}
	r.last[c.Name] = a

	key, ttl := r.cfg.Key, msArg(r.cfg.TTL)
	args := []string{"SET", key, l.Token, "NX", "PX", ttl}
	if r.cfg.Fencing == "token" {
		args = []string{"EVAL", store.ScriptFencedAcquire, "2", key, key + ":fence", l.Token, ttl}
	}
	var granted []*Node
	var fence int64
	r.each(t, nodes, OpAcquire, args, func(i int, res rpcResult) {
		o := classify(nodes[i], res)
		a.Nodes[i] = o
		w.emitLine(c.Name, o.Outcome.traceKind(), appendOutcome(w.line(), o))
		if o.Outcome == OutcomeOK {
			granted = append(granted, nodes[i])
			fence = max(fence, o.Fence)
		}
	})

	a.Elapsed = t.Wall() - l.Start
	a.Validity = Validity(r.cfg.TTL, a.Elapsed, r.cfg.DriftFactor)
	a.Granted = len(granted)
	a.Done = true
	a.OK = a.Granted >= a.Quorum && a.Validity > 0
	summary := fmt.Sprintf("%d of %d nodes (quorum %d) %s, elapsed %s, validity %s",
		a.Granted, len(nodes), a.Quorum, a.tally(), a.Elapsed, a.Validity)
	if a.OK {
		l.Nodes = granted
		l.Until = l.Start + a.Validity
		l.Fence = fence
		w.Emit(c.Name, "quorum", "%s: lock granted", summary)
		return true
	}
	why := "no quorum"
	if a.Granted >= a.Quorum {
		why = "validity used up"
	}
	if r.nested(t, l) {
		w.Emit(c.Name, "refused", "%s: %s; the keys are this hold's own, so nothing is released", summary, why)
		return false
	}
	w.Emit(c.Name, "refused", "%s: %s; releasing on all nodes", summary, why)
	r.releaseAll(t, nodes, l.Token)
	return false
}

// tally lists the nodes by outcome, in outcome then node order:
// "[ok redis-1 redis-2; taken redis-3; timeout redis-4 redis-5]".
func (a *Attempt) tally() string {
	// One buffer: this runs for every attempt.
	b := make([]byte, 0, 64)
	b = append(b, '[')
	first := true
	for _, oc := range []Outcome{OutcomeOK, OutcomeTaken, OutcomeTimeout, OutcomeError} {
		n := 0
		for _, o := range a.Nodes {
			if o.Outcome != oc {
				continue
			}
			if n == 0 {
				if !first {
					b = append(b, "; "...)
				}
				b = append(b, oc...)
				first = false
			}
			b = append(b, ' ')
			b = append(b, o.Node...)
			n++
		}
	}
	return string(append(b, ']'))
}

// classify turns a node's reply to the acquire command into an outcome.
func classify(n *Node, res rpcResult) NodeOutcome {
	o := NodeOutcome{Node: n.Name()}
	switch {
	case res.err == ErrTimeout:
		o.Outcome = OutcomeTimeout
	case res.err != nil:
		o.Outcome, o.Detail = OutcomeError, res.err.Error()
	case res.reply == nil:
		o.Outcome = OutcomeTaken
	default:
		o.Outcome = OutcomeOK
		if f, ok := res.reply.(int); ok {
			o.Fence = int64(f)
		}
	}
	return o
}

func appendOutcome(b []byte, o NodeOutcome) []byte {
	b = append(append(b, o.Node...), ": "...)
	switch o.Outcome {
	case OutcomeOK:
		b = append(b, "OK"...)
		if o.Fence > 0 {
			b = strconv.AppendInt(append(b, " (counter "...), o.Fence, 10)
			b = append(b, ')')
		}
		return b
	case OutcomeTaken:
		return append(b, "taken by another client"...)
	case OutcomeTimeout:
		return append(b, "no reply within request_timeout"...)
	case OutcomeError:
		return append(append(b, "error "...), o.Detail...)
	}
	return append(b, o.Outcome...)
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
	w, c := t.World(), t.Client()
	nodes := r.masters(t)
	start := t.Wall()
	n := 0
	r.each(t, nodes, OpRenew, []string{"EVAL", store.ScriptRenew, "1", r.cfg.Key, l.Token, msArg(r.cfg.TTL)},
		func(_ int, res rpcResult) {
			if res.err == nil && res.reply == 1 {
				n++
			}
		})
	now := t.Wall()
	validity := Validity(r.cfg.TTL, now-start, r.cfg.DriftFactor)
	q := len(nodes)/2 + 1
	switch {
	case n < q:
		w.Emit(c.Name, "renew-refused", "extended on %d of %d nodes (quorum %d)", n, len(nodes), q)
		return false
	case l.Until >= 0 && now >= l.Until:
		w.Emit(c.Name, "renew-refused", "extended on %d nodes, but only after the lease had run out at %s", n, sim.FormatTime(l.Until))
		return false
	case validity <= 0:
		w.Emit(c.Name, "renew-refused", "extended on %d nodes, but the validity is used up (%s)", n, validity)
		return false
	}
	l.Until = start + validity
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
