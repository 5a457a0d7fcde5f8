package judge

import (
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// releasing judges a release of client c (its books cl) as it begins. A
// client whose grant is not in force then on a quorum of the lock nodes
// (it expired, was lost or taken over, or was never given) releases a
// lock it does not hold: the tutorials' "check isHeldByCurrentThread
// before unlock". With a check-and-delete release it deletes nothing;
// with a blind DEL it may delete another client's key, which the command
// counts as a wrong release as well.
func (j *Judge) releasing(now time.Duration, c string, cl *client) {
	granted := cl.granted
	cl.granted = false
	live := 0
	for i := range j.cfg.Nodes { // their slots are the first, in order
		if g := j.nodes.slots[i].grant; g != nil && g.owner == c && g.lostBy.ID == "" && (g.expires < 0 || g.expires > now) {
			live++
		}
	}
	if live < max(j.cfg.Quorum, 1) {
		j.unheldRelease(now, c, cl, granted)
	}
}

// unheldRelease is releasing's verdict on a release of a lock the client
// does not hold, and why: the first of its grants (by node) that was lost
// or expired, else what its client last heard. It is apart from releasing,
// whose frame is on a client's coroutine stack at every release (a
// coroutine stack that outgrows its first 2 KB is copied).
func (j *Judge) unheldRelease(now time.Duration, c string, cl *client, granted bool) {
	var why Phrase
	for i := range j.cfg.Nodes {
		n, g := j.cfg.Nodes[i], j.nodes.slots[i].grant
		if g == nil || g.owner != c {
			continue
		}
		if g.lostBy.ID != "" {
			why = Phrase{ID: "why-split-brain", Args: []sim.Arg{sim.S("node", n)}, Subs: []Sub{{"lost", g.lostBy}}}
			break
		}
		if g.expires >= 0 && g.expires <= now {
			why = j.expiredHow(n, g)
			break
		}
	}
	switch {
	case why.ID != "":
	case !granted:
		why = phrase("why-acquire-failed")
	case cl.lastEnd.ID != "":
		why = cl.lastEnd
	default:
		why = phrase("why-not-in-force")
	}
	j.m.UnheldReleases++
	j.emit(c, "UNHELD-RELEASE", "unheld-release", Phrase{ID: "unheld-release", Args: []sim.Arg{sim.S("client", c)}, Subs: []Sub{{"why", why}}}.Flat()...)
}
