package judge

import (
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// A grant made on a stale master (a master a failover replaced while it was
// cut off) does not count: the world says why in the Command event's Note,
// in English, and a recorded history keeps that text. The judge says the
// same as a phrase of its own (lost-stale-master), from its record of the
// failover, so that the explanation renders in every language.

// replacement is a failover as the judge saw it: the node promoted in a
// master's place, and when.
type replacement struct {
	by string
	at time.Duration
}

// noteReplaced records that promoted replaced old at t.
func (j *Judge) noteReplaced(old, promoted string, t time.Duration) {
	if j.replaced == nil {
		j.replaced = map[string]replacement{}
	}
	j.replaced[old] = replacement{by: promoted, at: t}
}

// staleGrant is why the grant e creates does not count (none when it
// does): the phrase of the failover behind e.Note when the judge's own
// record of it says exactly what the note says in English, else the note
// as English text (a hand-written history, a world that words it
// otherwise), so the English explanation is always the note.
func (j *Judge) staleGrant(e *Event) Phrase {
	if e.Note == "" {
		return Phrase{}
	}
	if r, ok := j.replaced[e.Node]; ok {
		p := phrase("lost-stale-master", sim.S("promoted", r.by), sim.S("node", e.Node), sim.I("replaced_ns", int64(r.at)))
		if p.String() == e.Note {
			return p
		}
	}
	return text(e.Note)
}
