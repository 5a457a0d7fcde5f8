package redlock

import (
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/store"
)

// The behaviours in which the Redlock libraries differ from the redis.io
// recipe and from each other (docs/scenario-format.md, lock.redlock). Each
// is a knob of model.LockConfig whose zero value is the redis.io recipe; the
// client profiles set them as each library's source does:
//
//   - the deadline of a request: per node (redis.io's "small timeout"), one
//     deadline for the whole attempt (redsync's expiry × timeoutFactor, a
//     context that go-redis honours only with ContextTimeoutEnabled), or
//     none of the lock's own, so a node that never answers holds the client
//     for the driver's read timeout (lock.timeout; go-redis: 5 s);
//   - when the attempt is decided: after every reply (redsync's
//     actOnPoolsAsync reads one result per pool) or as soon as a quorum has
//     voted either way (node-redlock's _attemptOperation resolves then);
//   - whether the validity is checked at all (node-redlock v5 and
//     RedissonRedLock grant on a quorum whatever time is left), with or
//     without redis.io's 2 ms, and on which of the client's clocks elapsed
//     time is measured (a Go wall-clock reading carries a monotonic one, so
//     redsync's now.Sub(start) ignores a wall-clock jump; Date.now does not);
//   - where the lease is counted from (leaseEnd).

// requestTimeout is how long a request sent now may take, for a group of
// requests begun at the client's monotonic reading begun: 0 or less means
// the attempt's deadline has passed and nothing more is sent.
func (r *Redlock) requestTimeout(t *model.Thread, begun time.Duration) time.Duration {
	switch r.cfg.Deadline {
	case model.DeadlineAttempt:
		return r.attemptDeadline() - (t.Mono() - begun)
	case model.DeadlineNone:
		if r.cfg.Timeout > 0 {
			return r.cfg.Timeout
		}
		return model.DefaultTimeout
	}
	return r.cfg.NodeTimeout
}

// timeoutBound names what a timed-out node ran out of, when it is not
// request_timeout (the trace's "no reply within ...").
func (r *Redlock) timeoutBound(o NodeOutcome) NodeOutcome {
	if o.Outcome == OutcomeTimeout {
		switch r.cfg.Deadline {
		case model.DeadlineAttempt:
			o.Detail = detailAttemptDeadline
		case model.DeadlineNone:
			o.Detail = detailDriverTimeout
		}
	}
	return o
}

// What a timed-out node ran out of (NodeOutcome.Detail), other than
// request_timeout; trace.go tells each with its piece.
const (
	detailAttemptDeadline = "the attempt's deadline"
	detailDriverTimeout   = "lock.timeout (the driver's read timeout)"
)

// unlockBounds is the recipe an unlock runs with: redsync's Unlock passes
// context.Background() (mutex.go), so with deadline: attempt an unlock is
// bounded only by the driver's read timeout (a shallow copy with deadline
// none; the release after a failed attempt keeps the attempt's deadline).
func (r *Redlock) unlockBounds() *Redlock {
	if r.cfg.Deadline != model.DeadlineAttempt {
		return r
	}
	u := *r
	u.cfg.Deadline = model.DeadlineNone
	return &u
}

// attemptDeadline is redsync's context timeout: expiry × timeoutFactor,
// at least a nanosecond.
func (r *Redlock) attemptDeadline() time.Duration {
	return max(time.Duration(float64(r.cfg.TTL)*r.cfg.TimeoutFactor), 1)
}

// clock is the reading elapsed time is measured on.
func (r *Redlock) clock(t *model.Thread) time.Duration {
	if r.cfg.MonotonicElapsed {
		return t.Mono()
	}
	return t.Wall()
}

// validity is Validity with this recipe's drift formula.
func (r *Redlock) validity(elapsed time.Duration) time.Duration {
	v := Validity(r.cfg.TTL, elapsed, r.cfg.DriftFactor)
	if r.cfg.NoDriftSlack {
		v += clockSlack
	}
	return v
}

// leaseEnd is when the client believes its lease ends, by its wall clock:
// validity after the attempt's start (lockstep's recipe, which counts the
// attempt's time twice and so errs early), or after the count, as redsync's
// until = now + (expiry − elapsed − drift) and node-redlock's start +
// duration − drift both amount to.
func (r *Redlock) leaseEnd(t *model.Thread, start, validity time.Duration) time.Duration {
	if r.cfg.LeaseFromReply {
		return t.Wall() + validity
	}
	return start + validity
}

// refusesLate reports whether an extension read after the old lease ended
// is refused.
func (r *Redlock) refusesLate() bool {
	return r.cfg.ExtendLate == "" || r.cfg.ExtendLate == model.ExtendLateRefuse
}

// expiredBeforeExtend is node-redlock's check at the top of extend():
// existing.expiration < Date.now() throws "Cannot extend an
// already-expired lock" and nothing is sent.
func (r *Redlock) expiredBeforeExtend(t *model.Thread, l *model.Lease) bool {
	if r.cfg.ExtendLate != model.ExtendLateError || l.Until < 0 || t.Wall() < l.Until {
		return false
	}
	narrator{}.extendExpired(t.Client(), l.Until)
	return true
}

// renewScript is the renewal's script: compare-and-PEXPIRE, or redsync's
// touch that also SETs a missing key.
func (r *Redlock) renewScript() string {
	if r.cfg.ExtendSetMissing {
		return store.ScriptTouchOrSet
	}
	return store.ScriptRenew
}

// tryCount is one client's attempts so far for one token.
type tryCount struct {
	token string
	n     int
}

// lastTry reports whether the attempt about to be made is the client's
// last for l's token: own is Redlock's own retry loop's answer, used
// without a retry block; with one, the client's loop makes one attempt per
// Acquire and the count is kept here. Only release_failed: end asks.
func (r *Redlock) lastTry(t *model.Thread, l *model.Lease, own bool) bool {
	if !r.cfg.ReleaseAtEnd || r.cfg.Retry == nil {
		return own
	}
	tc := r.tries[t.Client()]
	if tc == nil || tc.token != l.Token {
		tc = &tryCount{token: l.Token}
		r.tries[t.Client()] = tc
	}
	tc.n++
	return tc.n >= max(r.cfg.Retry.Attempts, 1)
}

// granted is step 4's verdict: a quorum, and (unless the recipe checks no
// validity) time left.
func (r *Redlock) granted(a *Attempt) bool {
	return a.Granted >= a.Quorum && (r.cfg.NoValidityCheck || a.Validity > 0)
}

// vote counts the replies of an acquisition or an extension as they
// arrive, for a decision at the first quorum: for once Quorum nodes agreed,
// against once Quorum refused (node-redlock's votesFor / votesAgainst ===
// quorumSize; acquire and extend both go through _attemptOperation).
type vote struct {
	quorum, yes, no int
	renew           bool // an extension: only a reply of 1 is a vote for
}

// add counts one reply and reports whether the round is decided.
func (v *vote) add(res model.Result) bool {
	switch {
	case res.Err != nil:
		v.no++
	case v.renew && res.Reply == 1, !v.renew && res.Reply != nil:
		v.yes++
	default:
		v.no++
	}
	return v.yes >= v.quorum || v.no >= v.quorum
}

// deciding is the vote of a round that decides at the first quorum, nil
// when every reply is awaited (releases always are).
func (r *Redlock) deciding(t *model.Thread, op model.Op) *vote {
	if !r.cfg.FirstQuorum || (op != model.OpAcquire && op != model.OpRenew) {
		return nil
	}
	return &vote{quorum: r.Quorum(t.World()), renew: op == model.OpRenew}
}
