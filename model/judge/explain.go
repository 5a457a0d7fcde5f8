package judge

import (
	"github.com/lockstep-sim/lockstep/model/tracefmt"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// The judge's explanations: the first violation names what ended (or
// undermined) the earlier holder's grant, and the faults behind it.

// clockNote is a clock fault on a node, to name in an explanation.
type clockNote struct {
	at    time.Duration
	what  Phrase // "redis-1's clock jumped -20s at 5.000s"
	drift bool   // a rate change (matters whenever it was in force), not a jump (matters only after the TTL was set)
}

// explain says why c's grant at now overlaps o's critical section: the
// message id of the VIOLATION line, its arguments (the phrase flattened:
// the state and the why as pieces) and the whole as a Phrase.
func (j *Judge) explain(now time.Duration, c, o string) (string, []sim.Arg, Phrase) {
	oc := j.client(o)
	state := phrase("state-working")
	switch {
	case oc.paused:
		state = phrase("state-paused", sim.I("since_ns", int64(oc.pausedSince)))
	case oc.hung:
		state = phrase("state-hung", sim.I("since_ns", int64(oc.hungSince)))
	case !oc.working:
		state = phrase("state-holding")
	}
	why := j.splitBrain(o)
	if why.ID == "" {
		why = j.lastEnd(o, c)
	}
	why = join(why, clientClockNote(o, &oc.clock, now))
	id := "violation-why"
	if why.ID == "" {
		id = "violation"
	}
	p := Phrase{ID: id, Args: withPiece([]sim.Arg{sim.I("at_ns", int64(now)), sim.S("client", c), sim.S("rival", o)}, "state", state),
		Subs: []Sub{{"why", why}}}
	return id, p.Flat(), p
}

// splitBrain describes a grant of owner still in force on a node that a
// failover replaced; none when there is none.
func (j *Judge) splitBrain(owner string) Phrase {
	for _, n := range j.cfg.Nodes {
		if g := j.nodes.grant(n); g != nil && g.owner == owner && g.lostBy.ID != "" {
			return Phrase{ID: "why-split-brain", Args: []sim.Arg{sim.S("node", n)}, Subs: []Sub{{"lost", g.lostBy}}}
		}
	}
	return Phrase{}
}

// lastEnd describes how owner's most recent grant ended: on a node that
// granted the lock to c, whose key that was, or else on any node; failing
// both (a later grant on that node has ended since), the owner's own
// record of it.
func (j *Judge) lastEnd(owner, c string) Phrase {
	var best *grant
	var node string
	oc := j.client(owner)
	for pass := 0; pass < 2 && best == nil; pass++ {
		for _, n := range j.cfg.Nodes {
			if pass == 0 && (j.nodes.grant(n) == nil || j.nodes.grant(n).owner != c) {
				continue
			}
			g := j.nodes.ended(n)
			if g != nil && g.owner == owner && (oc.token == "" || g.value == oc.token) && (best == nil || g.endedAt > best.endedAt) {
				best, node = g, n
			}
		}
	}
	if best == nil {
		return oc.lastEnd
	}
	return join(best.how, j.cutOff(owner, node, best))
}

// expiredHow says how grant g on node ran out, naming the clock faults in
// force while it lived.
func (j *Judge) expiredHow(node string, g *grant) Phrase {
	var notes Phrase
	for _, cn := range j.clockNotes[node] {
		if cn.at <= g.expires && (cn.drift || cn.at >= g.set || g.from != "") {
			notes = joinWith("notes-and", notes, cn.what)
		}
	}
	if notes.ID == "" || g.ttl <= 0 || g.expires < 0 {
		return phrase("how-expired", sim.S("node", node), sim.I("at_ns", int64(g.expires)))
	}
	id, args := "how-expired-clock", []sim.Arg{sim.S("node", node), sim.I("at_ns", int64(g.expires)),
		sim.I("after_ns", int64(g.expires-g.set)), sim.I("ttl_ns", int64(g.ttl))}
	if g.from != "" { // it came with a failover
		id, args = "how-expired-clock-on", append(args, sim.S("from", g.from))
	}
	return Phrase{ID: id, Args: args, Subs: []Sub{{"notes", notes}}}
}

// cutOff names the partition that kept owner from its node while grant g
// ran out: it could neither renew nor see the lease go.
func (j *Judge) cutOff(owner, node string, g *grant) Phrase {
	since, ok := j.cutSince[owner+"|"+node]
	if !ok || since > g.endedAt || !strings.Contains(g.how.String(), "expired") {
		return Phrase{}
	}
	id := "why-cut-off"
	if j.cfg.Watchdog {
		id = "why-cut-off-watchdog"
	}
	return phrase(id, sim.S("owner", owner), sim.S("node", node), sim.I("since_ns", int64(since)))
}

// clientClockNote names a clock fault on client o that bears on what it
// measured: a drifting clock times its work and timeouts wrongly; a jumped
// wall clock misjudges its lease.
func clientClockNote(o string, clock *sim.Clock, now time.Duration) Phrase {
	var note Phrase
	if r := clock.Rate(); r != 1 {
		note = phrase("why-client-drift", sim.S("client", o), sim.S("rate", tracefmt.Rate(r)),
			sim.I("second_ns", int64(clock.TrueAfter(now, time.Second))))
	}
	if off := clock.Wall(now) - clock.Mono(now); off != 0 {
		note = join(note, phrase("why-client-wall", sim.S("client", o), sim.I("by_ns", int64(off.Round(time.Millisecond)))))
	}
	return note
}
