package model

import (
	"strings"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/model/tracefmt"
)

// wait records that c polls key k while holding the keys it took, and
// reports a deadlock when that closes a circle: c waits for a key whose
// holder waits, through others, for a key c holds. It is told once per
// circle (until one of them gets its keys or gives up) as a trace line and
// a judge event. The holders are the clients' belief: a key whose TTL ran
// out still counts as held until its owner gives it back, which is what
// each client of the circle believes too.
func (m *multiKey) wait(t *Thread, h *keyHold, k string) {
	h.waiting = k
	if h.reported || h.taken == 0 {
		return
	}
	circle := []*Client{t.c}
	for x := m.owner[k]; x != nil && x != t.c; {
		hx := m.holds[x]
		if hx == nil || hx.waiting == "" || len(circle) > len(m.holds) {
			return
		}
		circle = append(circle, x)
		x = m.owner[hx.waiting]
		if x == nil {
			return
		}
	}
	if len(circle) < 2 || m.owner[k] == nil {
		return
	}
	for _, x := range circle {
		m.holds[x].reported = true
	}
	msg := m.deadlockMsg(circle)
	w := t.c.w
	w.Emit(t.c.Name, "deadlock", "%s", msg)
	w.feed(&judge.Event{Kind: judge.Deadlock, Client: t.c.Name, Note: msg})
}

// deadlockMsg is the "waiting for each other" explanation of a circle.
func (m *multiKey) deadlockMsg(circle []*Client) string {
	var b strings.Builder
	names := make([]string, len(circle))
	for i, x := range circle {
		names[i] = x.Name
	}
	if len(circle) == 2 {
		b.WriteString(names[0] + " and " + names[1] + " are waiting for each other: ")
	} else {
		b.WriteString(strings.Join(names, ", ") + " wait in a circle: ")
	}
	for i, x := range circle {
		h := m.holds[x]
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(x.Name + " holds " + strings.Join(h.keys[:h.taken], ", ") + " and waits for " + h.waiting)
	}
	b.WriteString(". Neither lets go until a key's TTL (" + tracefmt.Dur(m.cfg.TTL) +
		") frees it or the retries give up; taking the keys in one order (lock.key_order: sorted) prevents it")
	return b.String()
}
