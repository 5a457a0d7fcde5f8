package model

import (
	"strconv"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// narrator writes a Redlock attempt into the trace as it happens (the
// first RedlockObserver of every Redlock), and the recipe's other moments:
// its own retries and refused renewals.
type narrator struct{}

// Begun writes nothing: the commands' own lines show the attempt start.
func (narrator) Begun(*Client, *Attempt) {}

// Answered is one node's outcome: "redis-2: OK (counter 7)".
func (narrator) Answered(c *Client, a *Attempt, i int) {
	o := a.Nodes[i]
	if kind := o.Outcome.traceKind(); !c.w.K.WantsText(kind) {
		c.w.K.EmitUnread(c.Name, kind)
		return
	}
	id, arg := o.traceID()
	b := appendOutcome(c.w.line(), o)
	if arg.Key == "" {
		c.w.sayLine(c.Name, o.Outcome.traceKind(), id, b, sim.S("node", o.Node))
		return
	}
	c.w.sayLine(c.Name, o.Outcome.traceKind(), id, b, sim.S("node", o.Node), arg)
}

// Counted is the verdict: granted, or refused and why.
func (narrator) Counted(c *Client, a *Attempt) {
	kind := "refused"
	if a.OK {
		kind = "quorum"
	}
	if !c.w.K.WantsText(kind) { // the tally is text: not built for a run nobody reads
		c.w.K.EmitUnread(c.Name, kind)
		return
	}
	args := [...]sim.Arg{sim.I("granted", int64(a.Granted)), sim.I("nodes", int64(len(a.Nodes))), sim.I("quorum", int64(a.Quorum)),
		sim.S("tally", a.tally()), sim.I("elapsed_ns", int64(a.Elapsed)), sim.I("validity_ns", int64(a.Validity)), sim.S("why", a.whyRefused())}
	switch {
	case a.OK:
		c.w.Tell(c.Name, "quorum", "quorum", args[:6]...)
	case a.Nested:
		c.w.Tell(c.Name, "refused", "refused-nested", args[:]...)
	case a.Keeps:
		c.w.Tell(c.Name, "refused", "refused-keeps", args[:]...)
	default:
		c.w.Tell(c.Name, "refused", "refused", args[:]...)
	}
}

func (a *Attempt) whyRefused() string {
	if a.Granted >= a.Quorum {
		return "validity used up"
	}
	return "no quorum"
}

func (narrator) retry(c *Client, d time.Duration, attempt, of int) {
	c.w.Tell(c.Name, "retry", "redlock-retry", sim.I("delay_ns", int64(d)), sim.I("attempt", int64(attempt)), sim.I("of", int64(of)))
}

func (narrator) extendExpired(c *Client, until time.Duration) {
	c.w.Tell(c.Name, "renew-refused", "extend-expired", sim.I("until_ns", int64(until)))
}

func (narrator) renewRefused(c *Client, rn Renewal) {
	switch {
	case rn.Extended < rn.Quorum:
		c.w.Tell(c.Name, "renew-refused", "extend-no-quorum", sim.I("extended", int64(rn.Extended)), sim.I("nodes", int64(rn.Of)), sim.I("quorum", int64(rn.Quorum)))
	case rn.Late:
		c.w.Tell(c.Name, "renew-refused", "extend-late", sim.I("extended", int64(rn.Extended)), sim.I("until_ns", int64(rn.Until)))
	default:
		c.w.Tell(c.Name, "renew-refused", "extend-validity", sim.I("extended", int64(rn.Extended)), sim.I("validity_ns", int64(rn.Validity)))
	}
}

// traceID is the message id of the trace line that reports outcome o of
// one node, and its argument beside the node.
func (o NodeOutcome) traceID() (string, sim.Arg) {
	switch o.Outcome {
	case OutcomeOK:
		if o.Fence > 0 {
			return "node-ok-counter", sim.I("counter", o.Fence)
		}
		return "node-ok", sim.Arg{}
	case OutcomeTaken:
		return "node-taken", sim.Arg{}
	case OutcomeTimeout:
		if o.Detail != "" {
			return "node-timeout", sim.S("within", o.Detail)
		}
		return "node-timeout", sim.S("within", "request_timeout")
	case OutcomeError:
		return "node-error", sim.S("error", o.Detail)
	}
	return "node-outcome", sim.S("outcome", string(o.Outcome))
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
