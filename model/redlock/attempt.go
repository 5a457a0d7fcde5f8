package redlock

import (
	"time"

	"github.com/lockstep-sim/lockstep/model"
)

// What a Redlock attempt looked like, as typed events for its observers:
// the trace's narrator (trace.go) and AttemptLog, which keeps each
// client's latest attempt for tests and displays. The recipe keeps none of
// it beyond the attempt it is making.

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

// NodeOutcome is one node's part in an attempt.
type NodeOutcome struct {
	Node    string
	Outcome Outcome
	Fence   int64  // with fencing: token, the node's counter after its INCR
	Detail  string // the error reply, for OutcomeError; what ran out, for OutcomeTimeout (empty: request_timeout)
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
	Nested   bool          // a re-acquisition inside a hold: a refusal releases nothing
	Keeps    bool          // a refusal leaves the keys: the client releases only after its last try
}

// Renewal is one watchdog extension of a Redlock lease, as counted.
type Renewal struct {
	Extended, Of, Quorum int           // nodes that extended the key, of how many, how many must
	Late                 bool          // the replies were read after the old lease had run out
	Until                time.Duration // the old lease's end by the client's clock
	Validity             time.Duration // of the extension
}

// RedlockObserver sees each Redlock attempt as it happens, in the client's
// order of events: begun (every node pending), each node's answer once the
// client has read it, then the count. a is the recipe's own record: an
// observer that keeps it copies it.
type RedlockObserver interface {
	Begun(c *model.Client, a *Attempt)
	Answered(c *model.Client, a *Attempt, i int)
	Counted(c *model.Client, a *Attempt)
}

// begin is step 1: a new attempt, every node pending.
func (r *Redlock) begin(t *model.Thread, l *model.Lease, nodes []*model.Node) *Attempt {
	a := r.last[t.Client()]
	if a == nil {
		a = &Attempt{}
		mapSet(&r.last, t.Client(), a)
	}
	if cap(a.Nodes) < len(nodes) { // sized once, not grown node by node
		a.Nodes = make([]NodeOutcome, 0, len(nodes))
	}
	*a = Attempt{Token: l.Token, Start: l.Start, Quorum: r.Quorum(t.World()), Nodes: a.Nodes[:0]}
	for _, n := range nodes {
		a.Nodes = append(a.Nodes, NodeOutcome{Node: n.Name(), Outcome: OutcomePending})
	}
	for _, o := range r.obs {
		o.Begun(t.Client(), a)
	}
	return a
}

// answered records node i's outcome.
func (r *Redlock) answered(c *model.Client, a *Attempt, i int, o NodeOutcome) {
	a.Nodes[i] = o
	if o.Outcome == OutcomeOK {
		a.Granted++
	}
	for _, ob := range r.obs {
		ob.Answered(c, a, i)
	}
}

// classify turns a node's reply to the acquire command into an outcome.
func classify(n *model.Node, res model.Result) NodeOutcome {
	o := NodeOutcome{Node: n.Name()}
	switch {
	case res.Err == model.ErrTimeout:
		o.Outcome = OutcomeTimeout
	case res.Err != nil:
		o.Outcome, o.Detail = OutcomeError, res.Err.Error()
	case res.Reply == nil:
		o.Outcome = OutcomeTaken
	default:
		o.Outcome = OutcomeOK
		if f, ok := res.Reply.(int); ok {
			o.Fence = int64(f)
		}
	}
	return o
}

// maxFence is the lease's fencing token: the largest counter among the
// nodes that granted (0 without fencing: token).
func (a *Attempt) maxFence() int64 {
	var f int64
	for _, o := range a.Nodes {
		if o.Outcome == OutcomeOK {
			f = max(f, o.Fence)
		}
	}
	return f
}

// AttemptLog keeps each client's latest Redlock attempt (a RedlockObserver).
type AttemptLog struct {
	// Looked up by name only; its iteration order never reaches output.
	last map[string]*Attempt
}

// WatchAttempts is the AttemptLog of w's Redlock, attached on first use
// (before the run, to see every attempt); nil when w does not run Redlock.
func WatchAttempts(w *model.World) *AttemptLog {
	r, ok := w.Strategy().(*Redlock)
	if !ok {
		return nil
	}
	for _, o := range r.obs {
		if l, ok := o.(*AttemptLog); ok {
			return l
		}
	}
	l := &AttemptLog{last: map[string]*Attempt{}}
	r.obs = append(r.obs, l)
	return l
}

// Begun is a new attempt of c.
func (l *AttemptLog) Begun(c *model.Client, a *Attempt) { l.last[c.Name] = a }

// Answered needs nothing: the log shares the attempt until it is counted.
func (l *AttemptLog) Answered(*model.Client, *Attempt, int) {}

// Counted needs nothing either (see Answered).
func (l *AttemptLog) Counted(*model.Client, *Attempt) {}

// Last is a copy of the client's most recent attempt, in progress or
// finished; false when it has made none.
func (l *AttemptLog) Last(client string) (Attempt, bool) {
	a := l.last[client]
	if a == nil {
		return Attempt{}, false
	}
	cp := *a
	cp.Nodes = append([]NodeOutcome(nil), a.Nodes...)
	return cp, true
}
