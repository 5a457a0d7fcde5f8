package views

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/sim"
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
	if fv := firstViolation(m.snap); fv != "" && h > 1 {
		p := m.pinnedViolation(fv, w, h)
		out, cut = append(out, p.lines...), p.cut
	} else if fv != "" {
		cut = true
	}
	k := m.pl.Event() - m.logBack
	if k == 0 {
		out = append(out, st.Header.Render(termtext.Escape(m.pl.Scenario().Title)))
		for _, l := range reflow(termtext.EscapeKeepLines(m.pl.Scenario().StoryIn(lang())), w) {
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
		cur = wrapEvent(st, evs[k-1], "▶ ", cols, w)
		if len(cur) > room {
			cur = cur[:room]
			cur[room-1] = fit(cur[room-1], w-1) + "…"
		}
	}
	next := k < len(evs) && room > len(cur)
	older := room - len(cur)
	if next {
		older--
	}
	for i := max(0, k-1-older); i < k-1; i++ {
		out = append(out, eventLine(st, evs[i], "  ", cols, false))
	}
	out = append(out, cur...)
	if next {
		out = append(out, eventLine(st, evs[k], tr("· next "), cols, true))
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
	lines := wrapIndent(tr("✖ first violation: ")+termtext.Escape(fv), w, 2)
	p := &pinned{fv: fv, w: w, h: h}
	if room := h - 1; len(lines) > room { // a line stays for the cursor's event
		lines, p.cut = lines[:room], true
		lines[room-1] = fit(lines[room-1], w-len(cutMark)) + cutMark
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
	if fv := firstViolation(m.snap); fv != "" {
		for _, l := range wrapIndent(termtext.Escape(fv), w, 0) {
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
		out = append(out, wrapEvent(st, evs[k-1], "", cols, w)...)
	}
	if k < len(evs) {
		out = append(out, "", st.Header.Render(tr("Next event")))
		out = append(out, wrapEvent(st, evs[k], "", cols, w)...)
	}
	return fitLines(out, w, h)
}

// cutMark ends the pinned violation when the log is too short for it.
const cutMark = " …v"

// wrapIndent wraps s to w columns, the lines after the first indented by
// indent spaces.
func wrapIndent(s string, w, indent int) []string {
	if w <= indent+8 {
		return []string{s}
	}
	lines := wrap(s, w)
	out := lines[:1]
	if len(lines) > 1 {
		pad := strings.Repeat(" ", indent)
		for _, l := range wrap(strings.Join(lines[1:], " "), w-indent) {
			out = append(out, pad+l)
		}
	}
	return out
}

// logCols are the widths of the log's time and process columns, fixed for
// the whole run so that the columns never shift as the cursor moves.
type logCols struct{ time, proc int }

// logCols measures once per run: the end and the names never change.
func (m *RunModel) logCols() logCols {
	if m.cols == (logCols{}) {
		m.cols = logCols{time: timeWidth(m.pl.End()), proc: procWidth(m.snap)}
	}
	return m.cols
}

// timeWidth is the width of secs(t) for every t up to end: "9.000s" and
// "10.000s" line up when the run lasts past 10 s.
func timeWidth(end interface{ Seconds() float64 }) int {
	return len(strconv.FormatFloat(end.Seconds(), 'f', 3, 64)) + 1
}

// procWidth is the width of the log's process column: the longest process
// name of the world (a replica's, redis-1-r1, is ten), at least eight.
func procWidth(snap player.Snapshot) int {
	w := 8
	for _, c := range snap.Clients {
		w = max(w, len(termtext.Escape(c.Name)))
	}
	for _, n := range snap.Nodes {
		w = max(w, len(termtext.Escape(n.Name)))
	}
	for _, s := range snap.Sentinels {
		w = max(w, len(termtext.Escape(s)))
	}
	if len(snap.Sentinels) > 0 {
		w = max(w, len("sentinels"))
	}
	return w
}

// eventHead is an event's columns before its message.
func eventHead(e sim.Event, prefix string, c logCols) string {
	var b strings.Builder
	writeHead(&b, e, prefix, c, 0)
	return b.String()
}

// writeHead writes eventHead to b, grown for it and extra bytes more: the
// log draws every line of it every frame, so it is built without fmt, in
// one allocation. Padding counts runes, as fmt's %*s does.
func writeHead(b *strings.Builder, e sim.Event, prefix string, c logCols, extra int) {
	var num [24]byte
	t := strconv.AppendFloat(num[:0], e.At.Seconds(), 'f', 3, 64)
	proc, kind := termtext.Escape(e.Proc), termtext.Escape(e.Kind)
	tPad := max(0, c.time-len(t)-1)
	pPad := max(0, c.proc-utf8.RuneCountInString(proc))
	kPad := max(0, 9-utf8.RuneCountInString(kind))
	b.Grow(len(prefix) + tPad + len(t) + 1 + 1 + len(proc) + pPad + 1 + len(kind) + kPad + 1 + extra)
	b.WriteString(prefix)
	writeSpaces(b, tPad)
	b.Write(t)
	b.WriteString("s ")
	b.WriteString(proc)
	writeSpaces(b, pPad)
	b.WriteByte(' ')
	b.WriteString(kind)
	writeSpaces(b, kPad)
	b.WriteByte(' ')
}

func writeSpaces(b *strings.Builder, n int) {
	for ; n > 0; n-- {
		b.WriteByte(' ')
	}
}

func eventStyle(st Styles, e sim.Event, future bool) func(...string) string {
	switch {
	case future:
		return st.Muted.Render
	case e.Kind == "VIOLATION" || e.Kind == "WRONG-RELEASE":
		return st.Bad.Render
	case e.Kind == "fault" || e.Kind == "UNHELD-RELEASE":
		return st.Warn.Render
	}
	return plain
}

func plain(s ...string) string { return strings.Join(s, " ") }

func eventLine(st Styles, e sim.Event, prefix string, c logCols, future bool) string {
	msg := termtext.Escape(eventText(e))
	var b strings.Builder
	writeHead(&b, e, prefix, c, len(msg))
	b.WriteString(msg)
	s := b.String()
	// eventStyle's choice, called directly: through a func value the
	// variadic argument escapes to the heap.
	switch {
	case future:
		return st.Muted.Render(s)
	case e.Kind == "VIOLATION" || e.Kind == "WRONG-RELEASE":
		return st.Bad.Render(s)
	case e.Kind == "fault" || e.Kind == "UNHELD-RELEASE":
		return st.Warn.Render(s)
	}
	return s
}

// wrapEvent is e over as many lines as w needs, the message's continuation
// lines under its first column.
func wrapEvent(st Styles, e sim.Event, prefix string, c logCols, w int) []string {
	head := eventHead(e, prefix, c)
	hw := ansi.StringWidth(head)
	msg := termtext.Escape(eventText(e))
	var lines []string
	if w-hw < 16 {
		lines = wrapIndent(head+msg, w, 2)
	} else {
		pad := strings.Repeat(" ", hw)
		for i, l := range wrap(msg, w-hw) {
			if i == 0 {
				lines = append(lines, head+l)
			} else {
				lines = append(lines, pad+l)
			}
		}
	}
	style := eventStyle(st, e, false)
	for i := range lines {
		lines[i] = style(lines[i])
	}
	return lines
}

// metricsBar is the checker's counters on one line; a counter that changed
// with the last move is highlighted and marked ▲.
func metricsBar(st Styles, m, prev model.Metrics, w int) string {
	verdict := st.Good.Render(tr("✓ SAFE so far"))
	if !m.Safe {
		verdict = st.Bad.Render(tr("✖ UNSAFE"))
	}
	// The bar's metrics are the table's with a short label, in its order;
	// those marked BarNonZero only while they (or, a step back, what they
	// were) are not 0.
	type item struct {
		x    model.Metric
		v, p int64
	}
	var items []item
	for _, x := range model.MetricTable() {
		v, p := x.Of(m), x.Of(prev)
		if x.Short != "" && (!x.BarNonZero || v != 0 || p != 0) {
			items = append(items, item{x, v, p})
		}
	}
	build := func(long bool) string {
		parts := []string{verdict}
		for _, it := range items {
			name := it.x.Short
			if long {
				name = it.x.Name
			}
			v := it.x.Format(it.v)
			if it.x.Kind == model.Flag {
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
	// Narrow: short labels, and the metrics shown only when not 0 give way
	// from the end, whole, rather than be cut mid-word.
	for {
		s := build(false)
		last := len(items) - 1
		if ansi.StringWidth(s) <= w || last < 0 || !items[last].x.BarNonZero {
			return s
		}
		items = items[:last]
	}
}

// eventText is a trace line's message in the TUI's language: rendered from
// its message id and arguments (model/tracemsg) in zh, the English msg
// itself otherwise, and whenever the catalogue cannot render it.
func eventText(e sim.Event) string {
	if lang := i18n.Current(); lang != i18n.EN && e.ID != "" {
		if s, ok := tracemsg.RenderIn(string(lang), e.ID, e.Args); ok {
			return s
		}
	}
	return e.Msg
}

// firstViolation is the snapshot's first violation in the TUI's language.
func firstViolation(s player.Snapshot) string {
	if i18n.Current() == i18n.ZH && s.FirstViolationPhrase.ID != "" {
		return s.FirstViolationPhrase.In(lang())
	}
	return s.FirstViolation
}
