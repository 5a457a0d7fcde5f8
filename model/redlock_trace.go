package model

import (
	"fmt"
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
	c.w.emitLine(c.Name, o.Outcome.traceKind(), appendOutcome(c.w.line(), o))
}

// Counted is the verdict: granted, or refused and why.
func (narrator) Counted(c *Client, a *Attempt) {
	summary := fmt.Sprintf("%d of %d nodes (quorum %d) %s, elapsed %s, validity %s",
		a.Granted, len(a.Nodes), a.Quorum, a.tally(), a.Elapsed, a.Validity)
	switch why := a.whyRefused(); {
	case a.OK:
		c.w.Emit(c.Name, "quorum", "%s: lock granted", summary)
	case a.Nested:
		c.w.Emit(c.Name, "refused", "%s: %s; the keys are this hold's own, so nothing is released", summary, why)
	case a.Keeps:
		c.w.Emit(c.Name, "refused", "%s: %s; its keys stay until its last try has failed", summary, why)
	default:
		c.w.Emit(c.Name, "refused", "%s: %s; releasing on all nodes", summary, why)
	}
}

func (a *Attempt) whyRefused() string {
	if a.Granted >= a.Quorum {
		return "validity used up"
	}
	return "no quorum"
}

func (narrator) retry(c *Client, d time.Duration, attempt, of int) {
	c.w.Emit(c.Name, "retry", "Redlock retries in %s (random delay, attempt %d of %d)", d, attempt, of)
}

func (narrator) extendExpired(c *Client, until time.Duration) {
	c.w.Emit(c.Name, "renew-refused", "cannot extend an already-expired lock: the lease ended at %s by its clock; nothing is sent", sim.FormatTime(until))
}

func (narrator) renewRefused(c *Client, rn Renewal) {
	switch {
	case rn.Extended < rn.Quorum:
		c.w.Emit(c.Name, "renew-refused", "extended on %d of %d nodes (quorum %d)", rn.Extended, rn.Of, rn.Quorum)
	case rn.Late:
		c.w.Emit(c.Name, "renew-refused", "extended on %d nodes, but only after the lease had run out at %s", rn.Extended, sim.FormatTime(rn.Until))
	default:
		c.w.Emit(c.Name, "renew-refused", "extended on %d nodes, but the validity is used up (%s)", rn.Extended, rn.Validity)
	}
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
