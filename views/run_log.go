package views

import (
	"fmt"

	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/views/panels"
	"github.com/lockstep-sim/lockstep/views/text"
)

// logLines is the trace around the cursor in w×h: the first violation's
// explanation pinned on top once it has happened, wrapped so that it reads
// in full, the story before the first event, then past events ending at the
// cursor (▶, wrapped too: a long command reply is not cut) and the next
// one, dimmed. cut reports that the pinned violation did not fit (v shows
// it in full).
func (m *RunModel) logLines(w, h int) (out []string, cut bool) {
	st := m.c.st
	out = make([]string, 0, h)
	if fv := panels.FirstViolation(m.snap); fv != "" && h > 1 {
		p := m.pinnedViolation(fv, w, h)
		out, cut = append(out, p.lines...), p.cut
	} else if fv != "" {
		cut = true
	}
	k := m.pl.Event() - m.logBack
	if k == 0 {
		out = append(out, st.Header.Render(termtext.Escape(m.pl.Scenario().Title)))
		for _, l := range text.Reflow(termtext.EscapeKeepLines(m.pl.Scenario().StoryIn(lang())), w) {
			if len(out) >= h-1 {
				break
			}
			out = append(out, l)
		}
	}
	evs := m.pl.Events()
	room := h - len(out)
	cols := m.logCols()
	// The cursor's event comes first, in full; then the next one; older
	// events, one line each, fill what is left above.
	var cur []string
	if k > 0 && room > 0 {
		cur = panels.WrapEvent(st, evs[k-1], "▶ ", cols, w)
		if len(cur) > room {
			cur = cur[:room]
			cur[room-1] = text.Fit(cur[room-1], w-1) + "…"
		}
	}
	next := k < len(evs) && room > len(cur)
	older := room - len(cur)
	if next {
		older--
	}
	for i := max(0, k-1-older); i < k-1; i++ {
		out = append(out, panels.EventLine(st, evs[i], "  ", cols, false))
	}
	out = append(out, cur...)
	if next {
		out = append(out, panels.EventLine(st, evs[k], tr("· next "), cols, true))
	}
	return out, cut
}

// pinned is the first violation as logLines pins it, rendered: it is the
// same every frame once it has happened, so it is built once per size.
type pinned struct {
	fv    string
	w, h  int
	lines []string
	cut   bool
}

// pinnedViolation is fv wrapped to w and cut to h-1 lines, from the cache
// when fv and the size are those of the last frame.
func (m *RunModel) pinnedViolation(fv string, w, h int) *pinned {
	if p := m.pinned; p != nil && p.fv == fv && p.w == w && p.h == h {
		return p
	}
	lines := text.WrapIndent(tr("✖ first violation: ")+termtext.Escape(fv), w, 2)
	p := &pinned{fv: fv, w: w, h: h}
	if room := h - 1; len(lines) > room { // a line stays for the cursor's event
		lines, p.cut = lines[:room], true
		lines[room-1] = text.Fit(lines[room-1], w-len(cutMark)) + cutMark
	}
	for i, l := range lines {
		lines[i] = m.c.st.Bad.Render(l)
	}
	p.lines = lines
	m.pinned = p
	return p
}

// detailLines is the v page: the first violation and the events at and
// after the cursor, each in full, in w×h.
func (m *RunModel) detailLines(w, h int) []string {
	st := m.c.st
	out := []string{st.Header.Render(tr("First violation"))}
	if fv := panels.FirstViolation(m.snap); fv != "" {
		for _, l := range text.WrapIndent(termtext.Escape(fv), w, 0) {
			out = append(out, st.Bad.Render(l))
		}
	} else {
		out = append(out, tr("none so far"))
	}
	evs, k := m.pl.Events(), m.pl.Event()-m.logBack
	cols := m.logCols()
	if k > 0 {
		where := tr(", at the cursor")
		if m.logBack > 0 {
			where = tr(", where the log is scrolled to")
		}
		out = append(out, "", st.Header.Render(fmt.Sprintf(tr("Event %d of %d%s"), k, len(evs), where)))
		out = append(out, panels.WrapEvent(st, evs[k-1], "", cols, w)...)
	}
	if k < len(evs) {
		out = append(out, "", st.Header.Render(tr("Next event")))
		out = append(out, panels.WrapEvent(st, evs[k], "", cols, w)...)
	}
	return text.FitLines(out, w, h)
}

// cutMark ends the pinned violation when the log is too short for it.
const cutMark = " …v"

// logCols measures once per run: the end and the names never change.
func (m *RunModel) logCols() panels.Cols {
	if m.cols == (panels.Cols{}) {
		m.cols = panels.ColsFor(m.pl.End(), m.snap)
	}
	return m.cols
}
