package redlock

import (
	"time"

	"github.com/lockstep-sim/lockstep/model"
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
// lock: the resource checks the lease's random token instead (model/resource).
//
// This file is the algorithm only. What an attempt looked like is told to
// observers (attempt.go): the trace's narrator (trace.go)
// and whoever watches (AttemptLog).
type Redlock struct {
	cfg model.LockConfig
	obs []RedlockObserver // the narrator first
	// tries counts each client's attempts for its current token, for
	// release_failed: end (lastTry); looked up by client only.
	tries map[*model.Client]*tryCount
	// working is each client's abortable work in progress (abort_work);
	// looked up by client only.
	working map[*model.Client]*abortable
	// last is each client's attempt record, reused by the next (begin):
	// observers that keep one copy it, and AttemptLog keeps the latest.
	last map[*model.Client]*Attempt
	// args is each client's commands for its token (args.go);
	// looked up by client only.
	args map[*model.Client]*redlockArgs
	// ttl is the TTL argument, formatted once (ttlArg).
	ttl string
}

func init() {
	model.RegisterStrategy(model.StrategyRedlock, func(c model.LockConfig) model.Strategy { return newRedlock(c) })
}

func newRedlock(c model.LockConfig) *Redlock {
	if c.NodeTimeout <= 0 {
		c.NodeTimeout = model.DefaultNodeTimeout
	}
	return &Redlock{cfg: c, obs: []RedlockObserver{narrator{}}, tries: map[*model.Client]*tryCount{}, working: map[*model.Client]*abortable{}}
}

// clockSlack is the fixed part of the drift allowance: redis.io adds 2 ms
// for the granularity of the nodes' expiry clocks.
const clockSlack = 2 * time.Millisecond

// Without a retry block Redlock retries on its own, as the redis.io text
// advises: a few attempts, each after a random delay so that clients that
// collided do not collide again. The delay is drawn from the client's seeded
// stream. The numbers are lockstep's, not a library's: redlock-py sleeps a
// fixed 200 ms between tries, redlock-rb makes 4 tries at 200 ms +
// rand(50 ms); the client profiles (scenario/profiles.go) model libraries. With a retry block the client's retry loop governs
// and an attempt is exactly one attempt.
const (
	defaultAttempts   = 3
	defaultRetryDelay = 200 * time.Millisecond // uniform in [0, this)
)

// Name is "redlock".
func (r *Redlock) Name() string { return model.StrategyRedlock }

// Quorum is N/2+1 of the shards' masters: the one place it is computed
// (attempts, renewals, the judge and the TUI all ask here).
func (r *Redlock) Quorum(w *model.World) int { return len(w.Shards)/2 + 1 }

// LockNodes are the current masters, one per shard (after a failover, the
// promoted replica).
func (r *Redlock) LockNodes(w *model.World) []*model.Node {
	out := make([]*model.Node, len(w.Shards))
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
func (r *Redlock) masters(t *model.Thread) []*model.Node { return t.Masters() }

// Acquire runs one attempt, or with no retry block Redlock's own few
// attempts (see defaultAttempts).
func (r *Redlock) Acquire(t *model.Thread, l *model.Lease) bool {
	attempts := 1
	if r.cfg.Retry == nil && !r.nested(t, l) {
		attempts = defaultAttempts
	}
	for i := 1; ; i++ {
		if r.attempt(t, l, r.lastTry(t, l, i >= attempts)) {
			return true
		}
		if i >= attempts {
			return false
		}
		d := time.Duration(t.Rand().Int64N(int64(defaultRetryDelay)))
		narrator{}.retry(t.Client(), d, i+1, attempts)
		t.Sleep(d)
		l.Start = t.Wall()
	}
}

// nested reports whether l is a re-acquisition inside a hold of the same
// token: then the keys already there are ours and must not be released on
// failure (a non-reentrant lock simply refuses itself).
func (r *Redlock) nested(t *model.Thread, l *model.Lease) bool {
	cur := t.Client().Lease()
	return cur != nil && cur.Token == l.Token
}

// attempt is steps 1-5 of the algorithm, once; last says whether it is
// the client's last try for this token (see keepsKeys).
func (r *Redlock) attempt(t *model.Thread, l *model.Lease, last bool) bool {
	nodes := r.masters(t)
	started := r.clock(t)
	a := r.begin(t, l, nodes)
	a.Keeps = r.cfg.ReleaseAtEnd && !last
	granted := r.setAll(t, a, nodes, l.Token)
	if r.count(t, l, a, started) {
		l.Nodes, l.Until, l.Fence = granted, r.leaseEnd(t, l.Start, a.Validity), a.maxFence()
		return true
	}
	if !a.Nested && !a.Keeps {
		r.releaseAll(t, nodes, l.Token)
	}
	return false
}

// setAll is step 2: SET NX PX (or the fenced script) on every node, each
// answer recorded in a as the client reads it; it returns the nodes that
// granted.
func (r *Redlock) setAll(t *model.Thread, a *Attempt, nodes []*model.Node, token string) []*model.Node {
	var granted []*model.Node // on a grant, the lease's node list
	r.each(t, nodes, model.OpAcquire, r.acquireArgs(t.Client(), token), func(i int, res model.Result) {
		r.answered(t.Client(), a, i, r.timeoutBound(classify(nodes[i], res)))
		if a.Nodes[i].Outcome == OutcomeOK {
			if granted == nil { // sized once, at the first node that grants
				granted = make([]*model.Node, 0, len(nodes))
			}
			granted = append(granted, nodes[i])
		}
	})
	return granted
}

// count is steps 3 and 4: elapsed by the client's clock (since its reading
// started), the validity, and whether a quorum granted in time.
func (r *Redlock) count(t *model.Thread, l *model.Lease, a *Attempt, started time.Duration) bool {
	a.Elapsed = r.clock(t) - started
	a.Validity = r.validity(a.Elapsed)
	a.Done = true
	a.OK = r.granted(a)
	a.Nested = r.nested(t, l)
	for _, o := range r.obs {
		o.Counted(t.Client(), a)
	}
	return a.OK
}

// Release is the compare-and-delete script on every master: the client does
// not know for sure which nodes hold its key. An unlock has no deadline of
// the attempt's kind (unlockBounds).
func (r *Redlock) Release(t *model.Thread, l *model.Lease) {
	u := r.unlockBounds()
	u.releaseAll(t, u.masters(t), l.Token)
}

func (r *Redlock) releaseAll(t *model.Thread, nodes []*model.Node, token string) {
	r.each(t, nodes, model.OpRelease, r.releaseArgs(t.Client(), token), nil)
}

// Renew is the watchdog's extension (renew); with abort_work a refused one
// fires the work's abort signal (using.go).
func (r *Redlock) Renew(t *model.Thread, l *model.Lease) bool {
	if r.renew(t, l) {
		return true
	}
	r.abortWork(t.Client())
	return false
}

// renew is check-and-PEXPIRE on every master. It counts only if a quorum
// extended the key, the old lease had not run out before the replies were
// read, and the new validity is positive.
func (r *Redlock) renew(t *model.Thread, l *model.Lease) bool {
	nodes := r.masters(t)
	start := t.Wall()
	rn := Renewal{Of: len(nodes), Quorum: r.Quorum(t.World()), Until: l.Until}
	if r.expiredBeforeExtend(t, l) {
		return false
	}
	r.each(t, nodes, model.OpRenew, r.renewArgs(t.Client(), l.Token),
		func(_ int, res model.Result) {
			if res.Err == nil && res.Reply == 1 {
				rn.Extended++
			}
		})
	if !r.extended(t, &rn, start) {
		narrator{}.renewRefused(t.Client(), rn)
		return false
	}
	l.Until = r.leaseEnd(t, start, rn.Validity)
	return true
}

// extended is a renewal's count, begun at the client's wall reading
// start: a quorum extended the key, the old lease had not run out by the
// time the replies were read, and the new validity is positive.
func (r *Redlock) extended(t *model.Thread, rn *Renewal, start time.Duration) bool {
	now := t.Wall()
	rn.Late = r.refusesLate() && rn.Until >= 0 && now >= rn.Until
	rn.Validity = r.validity(now - start)
	return rn.Extended >= rn.Quorum && !rn.Late && rn.Validity > 0
}

// each sends args to every node, in parallel or one after another as
// configured, and calls onReply (if not nil) for each node in node order
// once its reply or timeout has been read by the client. Each request is
// bounded as the deadline knob says (requestTimeout); an acquisition that
// decides at the first quorum stops reading, or asking, once it is decided
// (the nodes not read are left pending).
func (r *Redlock) each(t *model.Thread, nodes []*model.Node, op model.Op, args []string, onReply func(int, model.Result)) {
	begun, v := t.Mono(), r.deciding(t, op)
	if r.cfg.Parallel {
		r.eachAtOnce(t, nodes, op, args, begun, v, onReply)
		return
	}
	for i, n := range nodes {
		res := r.ask(t, n, op, begun, args)
		if onReply != nil {
			onReply(i, res)
		}
		if v != nil && v.add(res) {
			return
		}
	}
}

// eachAtOnce is each with parallel: one round to every node, read as the
// replies arrive; the nodes a decided vote did not wait for are skipped.
func (r *Redlock) eachAtOnce(t *model.Thread, nodes []*model.Node, op model.Op, args []string, begun time.Duration, v *vote, onReply func(int, model.Result)) {
	var res []model.Result
	if v != nil {
		res = t.CallAllUntil(nodes, op, r.requestTimeout(t, begun), args, v.add)
	} else {
		res = t.CallAll(nodes, op, r.requestTimeout(t, begun), args)
	}
	for i := range res {
		if onReply != nil && res[i].Err != model.ErrUnread {
			onReply(i, res[i])
		}
	}
}

// ask is one request of a sequential round; with the attempt's deadline
// already passed it is not sent and counts as a timeout, as a Go client's
// expired context fails the command at once.
func (r *Redlock) ask(t *model.Thread, n *model.Node, op model.Op, begun time.Duration, args []string) model.Result {
	d := r.requestTimeout(t, begun)
	if d <= 0 {
		t.Tell("timeout", "deadline-passed", sim.S("node", n.Name()), sim.I("deadline_ns", int64(r.attemptDeadline())))
		return model.Result{Err: model.ErrTimeout}
	}
	reply, err := t.CallTimeout(n, op, d, args...)
	return model.Result{Reply: reply, Err: err}
}
