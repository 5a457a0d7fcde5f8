package judge

import (
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// releasing judges a release as it begins. A client whose grant is not in
// force then on a quorum of the lock nodes (it expired, was lost or taken
// over, or was never given) releases a lock it does not hold: the
// tutorials' "check isHeldByCurrentThread before unlock". With a
// check-and-delete release it deletes nothing; with a blind DEL it may
// delete another client's key, which the command counts as a wrong release
// as well.
func (j *Judge) releasing(now time.Duration, c string) {
	cl := j.client(c)
	granted := cl.granted
	cl.granted = false
	live := 0
	var why Phrase
	for i := range j.cfg.Nodes { // their slots are the first, in order
		n, g := j.cfg.Nodes[i], j.nodes.slots[i].grant
		if g == nil || g.owner != c {
			continue
		}
		switch {
		case g.lostBy.ID != "":
			if why.ID == "" {
				why = Phrase{ID: "why-split-brain", Args: []sim.Arg{sim.S("node", n)}, Subs: []Sub{{"lost", g.lostBy}}}
			}
		case g.expires >= 0 && g.expires <= now:
			if why.ID == "" {
				why = j.expiredHow(n, g)
			}
		default:
			live++
		}
	}
	if live >= max(j.cfg.Quorum, 1) {
		return
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
