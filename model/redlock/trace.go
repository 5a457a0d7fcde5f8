package redlock

import (
	"strconv"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// narrator writes a Redlock attempt into the trace as it happens (the
// first RedlockObserver of every Redlock), and the recipe's other moments:
// its own retries and refused renewals.
type narrator struct{}

// Begun writes nothing: the commands' own lines show the attempt start.
func (narrator) Begun(*model.Client, *Attempt) {}

// Answered is one node's outcome: "redis-2: OK (counter 7)".
func (narrator) Answered(c *model.Client, a *Attempt, i int) {
	o := a.Nodes[i]
	if c.World().K.Unread(c.Name, o.Outcome.traceKind()) {
		return // the outcome is text: not built for a run nobody reads
	}
	var buf [3]sim.Arg
	id, args := o.traceID(append(buf[:0], sim.S("node", o.Node)))
	c.World().SayLine(c.Name, o.Outcome.traceKind(), id, appendOutcome(c.World().Line(), o), args...)
}

// Counted is the verdict: granted, or refused and why.
func (narrator) Counted(c *model.Client, a *Attempt) {
	kind := "refused"
	if a.OK {
		kind = "quorum"
	}
	if c.World().K.Unread(c.Name, kind) {
		return // the tally is text: not built for a run nobody reads
	}
	var buf [12]sim.Arg
	args := append(buf[:0], sim.I("granted", int64(a.Granted)), sim.I("nodes", int64(len(a.Nodes))), sim.I("quorum", int64(a.Quorum)),
		sim.I("elapsed_ns", int64(a.Elapsed)), sim.I("validity_ns", int64(a.Validity)))
	args = a.tallyArgs(args)
	if a.OK {
		c.Tell("quorum", "quorum", args...)
		return
	}
	args = append(args, sim.S("why", a.whyRefused()))
	switch {
	case a.Nested:
		c.Tell("refused", "refused-nested", args...)
	case a.Keeps:
		c.Tell("refused", "refused-keeps", args...)
	default:
		c.Tell("refused", "refused", args...)
	}
}

// whyRefused is the phrase (model/tracemsg) of why a refused attempt failed.
func (a *Attempt) whyRefused() string {
	if a.Granted >= a.Quorum {
		return "redlock-validity-used-up"
	}
	return "redlock-no-quorum"
}

func (narrator) retry(c *model.Client, d time.Duration, attempt, of int) {
	c.Tell("retry", "redlock-retry", sim.I("delay_ns", int64(d)), sim.I("attempt", int64(attempt)), sim.I("of", int64(of)))
}

func (narrator) extendExpired(c *model.Client, until time.Duration) {
	c.Tell("renew-refused", "extend-expired", sim.I("until_ns", int64(until)))
}

func (narrator) renewRefused(c *model.Client, rn Renewal) {
	switch {
	case rn.Extended < rn.Quorum:
		c.Tell("renew-refused", "extend-no-quorum", sim.I("extended", int64(rn.Extended)), sim.I("nodes", int64(rn.Of)), sim.I("quorum", int64(rn.Quorum)))
	case rn.Late:
		c.Tell("renew-refused", "extend-late", sim.I("extended", int64(rn.Extended)), sim.I("until_ns", int64(rn.Until)))
	default:
		c.Tell("renew-refused", "extend-validity", sim.I("extended", int64(rn.Extended)), sim.I("validity_ns", int64(rn.Validity)))
	}
}

// traceID is the message id of the trace line that reports outcome o of
// one node, and args (the node's) with the line's other arguments.
func (o NodeOutcome) traceID(args []sim.Arg) (string, []sim.Arg) {
	switch o.Outcome {
	case OutcomeOK:
		if o.Fence > 0 {
			return "node-ok-counter", append(args, sim.I("counter", o.Fence))
		}
		return "node-ok", args
	case OutcomeTaken:
		return "node-taken", args
	case OutcomeTimeout:
		within, bound := "request_timeout", "bound-request-timeout"
		switch o.Detail {
		case detailAttemptDeadline:
			within, bound = o.Detail, "bound-attempt-deadline"
		case detailDriverTimeout:
			within, bound = o.Detail, "bound-driver-timeout"
		}
		return "node-timeout", append(args, sim.S("within", within), sim.S("bound", bound))
	case OutcomeError:
		return "node-error", append(args, sim.S("error", o.Detail))
	}
	return "node-outcome", append(args, sim.S("outcome", string(o.Outcome)))
}

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

// tallied are the outcomes a tally lists, in its order, each with its
// phrase (model/tracemsg) and the argument that holds its nodes.
var tallied = [...]struct {
	outcome     Outcome
	phrase, key string
}{
	{OutcomeOK, "tally-ok", "ok_nodes"},
	{OutcomeTaken, "tally-taken", "taken_nodes"},
	{OutcomeTimeout, "tally-timeout", "timeout_nodes"},
	{OutcomeError, "tally-error", "error_nodes"},
}

// tallyArgs appends the nodes by outcome to args, in outcome then node
// order: tally, the phrases of the outcomes that occurred
// ("tally-ok tally-taken", which the English renders "ok redis-1
// redis-2; taken redis-3"), and for each of them its nodes ("ok_nodes":
// "redis-1 redis-2"). One string holds them all: this runs for every
// attempt.
func (a *Attempt) tallyArgs(args []sim.Arg) []sim.Arg {
	b := make([]byte, 0, 96)
	var ends [len(tallied)]int // where each outcome's nodes end in b
	for j, t := range tallied {
		start := len(b)
		for _, o := range a.Nodes {
			if o.Outcome != t.outcome {
				continue
			}
			if len(b) > start {
				b = append(b, ' ')
			}
			b = append(b, o.Node...)
		}
		ends[j] = len(b)
	}
	phrases := len(b)
	for j, t := range tallied {
		if ends[j] > tallyStart(ends, j) {
			if len(b) > phrases {
				b = append(b, ' ')
			}
			b = append(b, t.phrase...)
		}
	}
	s := string(b)
	args = append(args, sim.S("tally", s[phrases:]))
	for j, t := range tallied {
		if from := tallyStart(ends, j); ends[j] > from {
			args = append(args, sim.S(t.key, s[from:ends[j]]))
		}
	}
	return args
}

// tallyStart is where outcome j's nodes begin in tallyArgs' buffer.
func tallyStart(ends [len(tallied)]int, j int) int {
	if j == 0 {
		return 0
	}
	return ends[j-1]
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
		if o.Detail != "" { // a deadline other than request_timeout (timeoutBound)
			return append(append(b, "no reply within "...), o.Detail...)
		}
		return append(b, "no reply within request_timeout"...)
	case OutcomeError:
		return append(append(b, "error "...), o.Detail...)
	}
	return append(b, o.Outcome...)
}
