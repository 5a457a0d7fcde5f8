package judge

import (
	"github.com/lockstep-sim/lockstep/model/tracefmt"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// keyEvent reads a node fault that may end, move or undermine the grant of
// the lock key there.
func (j *Judge) keyEvent(e *Event) {
	switch e.Kind {
	case Restarted:
		j.restarted(e)
	case FailedOver:
		j.failedOver(e)
	case Resynced:
		j.resynced(e)
	case NodeClockJumped:
		j.clockJumped(e)
	case NodeClockRate:
		j.clockDrifted(e)
	case Replicated:
		j.replicated(e)
	}
}

// command judges a lock command by whether the lock key existed on its
// node before and after it ran.
func (j *Judge) command(e *Event) {
	now, name, client := e.At, e.Node, e.Client
	s := j.nodes.slotOf(e) // all this command changes is here
	if s == nil {
		s = j.nodes.at(name) // a recorded history names its nodes
	}
	g := s.grant
	if g != nil && !e.Before {
		// The key vanished since we last looked: it expired.
		j.endIn(s, g, g.expires, j.expiredHow(name, g))
		g = nil
	}
	switch {
	case !e.Before && e.After:
		k := e.key()
		g := j.newGrant()
		// Field by field: a literal of the whole grant is built on the stack
		// and copied (224 bytes twice, on every grant).
		g.owner, g.at, g.value = client, now, k.Owner
		g.books = j.clientOf(client, e.ClientID)
		if e.Note != "" { // a stale master's grant, which does not count
			g.lostBy = j.staleGrant(e)
		}
		g.setExpiry(now, k)
		s.grant = g
		g.books.token = g.value
	case e.Before && !e.After && g != nil:
		mine := j.owns(g, e)
		if !mine && e.Op == OpRelease {
			j.m.WrongReleases++
			j.emit(client, "WRONG-RELEASE", "wrong-release", sim.S("client", client), sim.S("node", name), sim.S("owner", g.owner))
		}
		how := phrase("how-released")
		if !mine {
			how = phrase("how-deleted", sim.S("node", name), sim.I("at_ns", int64(now)), sim.S("client", client))
		}
		j.endIn(s, g, now, how)
	case e.Before && e.After && g != nil && e.Op != OpOther && j.owns(g, e):
		g.setExpiry(now, e.key())
	}
}

// setExpiry records that the lock key's TTL was (re)set at now.
func (g *grant) setExpiry(now time.Duration, k KeyState) {
	g.set, g.ttl, g.expires, g.from = now, k.TTL, k.Expires, ""
}

// end ends g, the grant in force on node name, at at.
func (j *Judge) end(name string, g *grant, at time.Duration, how Phrase) {
	j.endIn(j.nodes.at(name), g, at, how)
}

// endIn is end on the node's slot s.
func (j *Judge) endIn(s *nodeSlot, g *grant, at time.Duration, how Phrase) {
	g.ended, g.endedAt, g.how = true, at, how
	g.books.lastEnd = how
	// The grant that ended here before is referenced nowhere else (a grant
	// is in one place: in force or ended on one node): the next grant
	// reuses it.
	j.spare = s.ended
	s.ended, s.grant = g, nil
}

// newGrant is a zero grant: the one end last let go, or a new one.
func (j *Judge) newGrant() *grant {
	if g := j.spare; g != nil {
		j.spare = nil
		*g = grant{}
		return g
	}
	return new(grant)
}

// keptGrant is the grant in force on node (nil: none), and whether the
// key e reads (on node, or on the node a failover promoted) still holds
// its token.
func (j *Judge) keptGrant(e *Event, node string) (g *grant, kept bool) {
	g = j.nodes.grant(node)
	if g == nil {
		return nil, false
	}
	k := e.key()
	return g, k.Held && k.Owner == g.value
}

// restarted judges the grant on a node after a restart: kept (persistence),
// expired while the node was down, or lost with the crash. A crash itself
// changes no grant: a down node's grant is judged when it restarts, or when
// a failover replaces it.
func (j *Judge) restarted(e *Event) {
	now, name := e.At, e.Node
	j.copyRestarted(e)
	g, kept := j.keptGrant(e, name)
	if kept {
		g.expires = e.key().Expires // the same absolute expiry, from the log
	}
	if g == nil || kept {
		return
	}
	if g.expires >= 0 && g.expires <= now {
		j.end(name, g, g.expires, Phrase{ID: "how-while-down", Args: []sim.Arg{sim.S("node", name)}, Subs: []Sub{{"how", j.expiredHow(name, g)}}})
		return
	}
	detail := phrase("how-persistence", sim.S("persistence", e.Persistence))
	if e.Persistence == "everysec" {
		detail = phrase("how-everysec", sim.I("set_ns", int64(g.set)))
	}
	j.end(name, g, now, Phrase{ID: "how-crash-lost", Args: []sim.Arg{sim.S("node", name), sim.I("crashed_ns", int64(e.CrashedAt)), sim.I("at_ns", int64(now))},
		Subs: []Sub{{"detail", detail}}})
}

// failedOver moves or ends the grant on e.Node when e.Other replaced it;
// e.OK: the old master is still up.
func (j *Judge) failedOver(e *Event) {
	now, old, promoted := e.At, e.Node, e.Other
	j.noteReplaced(old, promoted, now)
	if g, kept := j.keptGrant(e, old); g != nil {
		if kept {
			ng := *g
			ng.expires = e.key().Expires
			if ng.from == "" {
				ng.from = old
			}
			j.nodes.setGrant(promoted, &ng)
			j.nodes.delGrant(old)
			delete(j.copies, promoted)
			return
		}
		lost := Phrase{ID: "how-failed-over", Args: []sim.Arg{sim.S("old", old), sim.S("promoted", promoted), sim.I("at_ns", int64(now))},
			Subs: []Sub{{"fate", j.copyFate(promoted, g, now)}}}
		if e.OK && e.Cut {
			// Still there, and its owner may still reach it: split brain
			// until old learns it was replaced.
			g.lostBy = Phrase{ID: "lost-split-brain", Args: []sim.Arg{sim.S("node", old)}, Subs: []Sub{{"lost", lost}}}
		} else {
			j.end(old, g, now, Phrase{ID: "how-failover-lost", Args: []sim.Arg{sim.S("node", old)}, Subs: []Sub{{"lost", lost}}})
		}
	}
	delete(j.copies, promoted) // a master now: its key is a grant
	j.adopt(promoted, e)
}

// adopt records a lock key that node holds without a grant on record (it
// came by replication), for the client whose token it is.
func (j *Judge) adopt(node string, e *Event) {
	if j.nodes.grant(node) != nil {
		return
	}
	k := e.key()
	if !k.Held {
		return
	}
	owner, ok := j.tokenOwner(k.Owner)
	if !ok {
		return
	}
	g := &grant{owner: owner, books: j.client(owner), at: e.At, value: k.Owner}
	g.setExpiry(e.At, k)
	g.from = e.Node // its TTL was set on the old master
	j.nodes.setGrant(node, g)
}

// tokenOwner is the client whose token v is. A lockstep client writes only
// its own tokens into the lock key, "<name>-<hold>", so the value names its
// owner: a key that reappears on another node (a promoted replica) has a
// known owner without a table of every token ever granted, which would
// grow with the run.
func (j *Judge) tokenOwner(v string) (string, bool) {
	i := strings.LastIndexByte(v, '-')
	if i <= 0 || i == len(v)-1 {
		return "", false
	}
	for _, r := range v[i+1:] {
		if r < '0' || r > '9' {
			return "", false
		}
	}
	if j.clients[v[:i]] == nil {
		return "", false
	}
	return v[:i], true
}

// resynced judges the grant on e.Node after a full resync made it a copy
// of e.Other: a grant it held that the master lacks is discarded.
func (j *Judge) resynced(e *Event) {
	now, r := e.At, e.Node
	j.copyResynced(e)
	g, kept := j.keptGrant(e, r)
	switch {
	case g == nil:
		return
	case kept:
		j.nodes.delGrant(r) // now a replica's copy of the master's key
		return
	}
	how := phrase("how-discarded", sim.S("node", r), sim.S("master", e.Other), sim.I("at_ns", int64(now)))
	if g.lostBy.ID != "" {
		how = Phrase{ID: "how-discarded-lost", Args: []sim.Arg{sim.S("node", r), sim.S("master", e.Other), sim.I("at_ns", int64(now))},
			Subs: []Sub{{"lost", g.lostBy}}}
	}
	j.end(r, g, now, how)
}

// clockJumped notes a jump of a node's wall clock and judges the grant
// there: expired early at once, or expiring at a new instant.
func (j *Judge) clockJumped(e *Event) {
	now, name := e.At, e.Node
	id := "clock-note-jump"
	if e.Monotonic {
		id = "clock-note-jump-wall"
	}
	what := phrase(id, sim.S("node", name), sim.I("by_ns", int64(e.By.Round(time.Millisecond))), sim.I("at_ns", int64(now)))
	j.noteClock(name, clockNote{at: now, what: what})
	j.copyClockJumped(e, what)
	g := j.nodes.grant(name)
	if g == nil {
		return
	}
	if e.Early >= 0 {
		j.end(name, g, now, Phrase{ID: "how-jump-early", Args: []sim.Arg{sim.S("node", name), sim.I("early_ns", int64(e.Early))}, Subs: []Sub{{"what", what}}})
		return
	}
	if k := e.key(); k.Held {
		g.expires = k.Expires
	}
}

// noteClock remembers a clock fault on node, for explanations.
func (j *Judge) noteClock(node string, cn clockNote) {
	if j.clockNotes == nil {
		j.clockNotes = map[string][]clockNote{}
	}
	j.clockNotes[node] = append(j.clockNotes[node], cn)
}

// clockDrifted notes a new rate of a node's clock and moves the expected
// expiry of the grant there.
func (j *Judge) clockDrifted(e *Event) {
	now, name := e.At, e.Node
	what := phrase("clock-note-drift", sim.S("node", name), sim.S("rate", tracefmt.Rate(e.Rate)), sim.I("at_ns", int64(now)))
	j.noteClock(name, clockNote{at: now, what: what, drift: true})
	j.copyDrifted(e)
	if g := j.nodes.grant(name); g != nil {
		if k := e.key(); k.Held {
			g.expires = k.Expires
		}
	}
}
