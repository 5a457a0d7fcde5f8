package views

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/sim"
)

// logLines is the trace around the cursor in w×h: the first violation's
// explanation pinned on top once it has happened, the story before the first
// event, then past events ending at the cursor (▶) and the next one, dimmed.
func (m *RunModel) logLines(w, h int) []string {
	st := m.c.st
	var out []string
	if fv := m.snap.FirstViolation; fv != "" && h > 3 {
		out = append(out, st.Bad.Render(fit("✖ first violation: "+fv, w)))
	}
	k := m.ss.Event() - m.logBack
	if k == 0 {
		out = append(out, st.Header.Render(m.ss.S.Title))
		for _, l := range reflow(m.ss.S.Story, w) {
			if len(out) >= h-1 {
				break
			}
			out = append(out, l)
		}
	}
	evs := m.ss.Events()
	room := h - len(out)
	if k < len(evs) && room > 1 {
		room-- // keep a line for the next event
	}
	start := max(0, k-room)
	pw := procWidth(m.snap)
	for i := start; i < k; i++ {
		prefix := "  "
		if i == k-1 {
			prefix = "▶ "
		}
		out = append(out, eventLine(st, evs[i], prefix, pw, false))
	}
	if k < len(evs) && len(out) < h {
		out = append(out, eventLine(st, evs[k], "· next ", pw, true))
	}
	return out
}

// procWidth is the width of the log's process column: the longest process
// name of the world (a replica's, redis-1-r1, is ten), at least eight.
func procWidth(snap scenario.Snapshot) int {
	w := 8
	for _, c := range snap.Clients {
		w = max(w, len(c.Name))
	}
	for _, n := range snap.Nodes {
		w = max(w, len(n.Name))
	}
	for _, s := range snap.Sentinels {
		w = max(w, len(s))
	}
	if len(snap.Sentinels) > 0 {
		w = max(w, len("sentinels"))
	}
	return w
}

func eventLine(st Styles, e sim.Event, prefix string, procW int, future bool) string {
	s := fmt.Sprintf("%s%s %-*s %-9s %s", prefix, secs(e.At), procW, e.Proc, e.Kind, e.Msg)
	switch {
	case future:
		return st.Muted.Render(s)
	case e.Kind == "VIOLATION" || e.Kind == "WRONG-RELEASE":
		return st.Bad.Render(s)
	case e.Kind == "fault":
		return st.Warn.Render(s)
	}
	return s
}

// metricsBar is the checker's counters on one line; a counter that changed
// with the last move is highlighted and marked ▲.
func metricsBar(st Styles, m, prev model.Metrics, w int) string {
	verdict := st.Good.Render("✓ SAFE so far")
	if !m.Safe {
		verdict = st.Bad.Render("✖ UNSAFE")
	}
	b := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	items := []struct {
		long, short string
		v, p        int64
		flag        bool // shown as yes/no
	}{
		{"violations", "viol", m.Violations, prev.Violations, false},
		{"lost_updates", "lost", m.LostUpdates, prev.LostUpdates, false},
		{"fencing_rejections", "fenced", m.FencingRejections, prev.FencingRejections, false},
		{"wrong_releases", "wrong-rel", m.WrongReleases, prev.WrongReleases, false},
		{"stuck", "stuck", b(m.Stuck), b(prev.Stuck), true},
		{"acquired", "acq", m.Acquired, prev.Acquired, false},
		{"failed_acquires", "failed", m.FailedAcquires, prev.FailedAcquires, false},
	}
	build := func(long bool) string {
		parts := []string{verdict}
		for _, it := range items {
			name := it.short
			if long {
				name = it.long
			}
			v := strconv.FormatInt(it.v, 10)
			if it.flag {
				v = map[int64]string{0: "no", 1: "yes"}[it.v]
			}
			s := name + " " + v
			if it.v != it.p {
				arrow := "▲"
				if it.v < it.p {
					arrow = "▼" // a step back undid it
				}
				s = st.Changed.Render(s + arrow)
			}
			parts = append(parts, s)
		}
		return " " + strings.Join(parts, " │ ")
	}
	if s := build(true); ansi.StringWidth(s) <= w {
		return s
	}
	return build(false)
}
