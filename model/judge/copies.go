package judge

import (
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// The judge's books of the lock key on replicas: what replication brought
// there and what became of it. A failover that loses a grant is explained
// from them: the key never reached the promoted replica, or it did and then
// expired early by the replica's clock, or the replica forgot it in a
// restart.

// keyCopy is the lock key on one replica, as replication brought it.
type keyCopy struct {
	value   string        // the token it holds
	at      time.Duration // when it arrived
	expires time.Duration // true time it expires there if nothing changes; -1 never
	gone    bool          // it went from the replica before its master's key did
	how     Phrase        // how it went, for explanations: "it expired there 10s early because ..."
}

// replicated records a write of the lock key applied on a replica.
func (j *Judge) replicated(e *Event) {
	node := e.Node
	if !e.OK {
		delete(j.copies, node) // deleted on the master too: nothing to explain
		return
	}
	if j.copies == nil {
		j.copies = map[string]*keyCopy{}
	}
	k := e.key()
	if k.Held {
		j.copies[node] = &keyCopy{value: k.Owner, at: e.At, expires: k.Expires}
		return
	}
	// The absolute expiry had already passed by the replica's clock.
	how := phrase("copy-arrived-expired", sim.S("node", node))
	if notes := j.clockNotesUntil(node, e.At); notes.ID != "" {
		how = Phrase{ID: "copy-arrived-expired-clock", Args: []sim.Arg{sim.S("node", node)}, Subs: []Sub{{"notes", notes}}}
	}
	j.copies[node] = &keyCopy{value: e.Token, at: e.At, gone: true, how: how}
}

// liveCopy is the copy of the lock key on node that has not gone; nil: none.
func (j *Judge) liveCopy(node string) *keyCopy {
	if c := j.copies[node]; c != nil && !c.gone {
		return c
	}
	return nil
}

// copyGone records that the copy on node went early, and how.
func (c *keyCopy) goneBy(how Phrase) { c.gone, c.how = true, how }

// copyClockJumped judges the copy on a replica whose clock jumped: expired
// early at once, or expiring at a new instant.
func (j *Judge) copyClockJumped(e *Event, what Phrase) {
	c := j.liveCopy(e.Node)
	if c == nil {
		return
	}
	if e.Early >= 0 {
		c.goneBy(Phrase{ID: "copy-jump-early", Args: []sim.Arg{sim.I("at_ns", int64(e.At)), sim.I("early_ns", int64(e.Early))}, Subs: []Sub{{"what", what}}})
		return
	}
	if k := e.key(); k.Held {
		c.expires = k.Expires
	}
}

// copyDrifted moves the expected expiry of the copy on a replica whose
// clock rate changed.
func (j *Judge) copyDrifted(e *Event) {
	if c := j.liveCopy(e.Node); c != nil {
		if k := e.key(); k.Held {
			c.expires = k.Expires
		}
	}
}

// copyRestarted judges the copy on a replica that restarted: kept by its
// persistence, or forgotten.
func (j *Judge) copyRestarted(e *Event) {
	c := j.liveCopy(e.Node)
	if c == nil {
		return
	}
	if k := e.key(); k.Held && k.Owner == c.value {
		c.expires = k.Expires
		return
	}
	c.goneBy(phrase("copy-crash-lost", sim.S("node", e.Node), sim.I("crashed_ns", int64(e.CrashedAt)), sim.I("at_ns", int64(e.At)),
		sim.S("persistence", e.Persistence)))
}

// copyResynced records what a full resync left on a replica: the master's
// key, or none.
func (j *Judge) copyResynced(e *Event) {
	if k := e.key(); k.Held {
		if j.copies == nil {
			j.copies = map[string]*keyCopy{}
		}
		j.copies[e.Node] = &keyCopy{value: k.Owner, at: e.At, expires: k.Expires}
		return
	}
	delete(j.copies, e.Node)
}

// copyFate says what became of grant g's key on promoted, which a failover
// at now made master without it: never replicated there (" before
// replicating it"), or replicated and gone since.
func (j *Judge) copyFate(promoted string, g *grant, now time.Duration) Phrase {
	c := j.copies[promoted]
	if c == nil || c.value != g.value {
		return phrase("fate-unreplicated")
	}
	how := c.how
	switch {
	case c.gone:
	case c.expires < 0 || c.expires > now:
		how = phrase("copy-gone")
	default:
		// Expired by the replica's own clock, found out at the failover.
		how = copyExpired(c.expires, g.expires, j.clockNotesUntil(promoted, c.expires))
	}
	return Phrase{ID: "fate-replicated", Args: []sim.Arg{sim.S("node", promoted), sim.I("at_ns", int64(c.at))}, Subs: []Sub{{"how", how}}}
}

// copyExpired says a copy expired at true time at, before its master's
// expiry (if any), because of the clock notes (none: no "because").
func copyExpired(at, master time.Duration, notes Phrase) Phrase {
	p := phrase("copy-expired", sim.I("at_ns", int64(at)))
	if master >= 0 && at < master {
		p = Phrase{ID: "copy-expired-early", Args: []sim.Arg{sim.I("at_ns", int64(at)), sim.I("before_ns", int64(master-at))}}
	}
	if notes.ID != "" {
		p = Phrase{ID: "copy-expired-because", Subs: []Sub{{"how", p}, {"notes", notes}}}
	}
	return p
}

// clockNotesUntil names the clock faults on node up to true time t.
func (j *Judge) clockNotesUntil(node string, t time.Duration) Phrase {
	var notes Phrase
	for _, cn := range j.clockNotes[node] {
		if cn.at <= t {
			notes = joinWith("notes-and", notes, cn.what)
		}
	}
	return notes
}
