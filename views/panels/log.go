package panels

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/sim"
	"github.com/lockstep-sim/lockstep/views/text"
)

// Cols are the widths of the log's time and process columns, fixed for
// the whole run so that the columns never shift as the cursor moves.
type Cols struct{ Time, Proc int }

// ColsFor are the columns of a run that ends at end, with snap's processes.
func ColsFor(end time.Duration, snap player.Snapshot) Cols {
	return Cols{Time: timeWidth(end), Proc: procWidth(snap)}
}

// timeWidth is the width of text.Secs(t) for every t up to end: "9.000s" and
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
func eventHead(e sim.Event, prefix string, c Cols) string {
	var b strings.Builder
	writeHead(&b, e, prefix, c, 0)
	return b.String()
}

// writeHead writes eventHead to b, grown for it and extra bytes more: the
// log draws every line of it every frame, so it is built without fmt, in
// one allocation. Padding counts runes, as fmt's %*s does.
func writeHead(b *strings.Builder, e sim.Event, prefix string, c Cols, extra int) {
	var num [24]byte
	t := strconv.AppendFloat(num[:0], e.At.Seconds(), 'f', 3, 64)
	proc, kind := termtext.Escape(e.Proc), termtext.Escape(e.Kind)
	tPad := max(0, c.Time-len(t)-1)
	pPad := max(0, c.Proc-utf8.RuneCountInString(proc))
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

func eventStyle(st text.Styles, e sim.Event, future bool) func(...string) string {
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

// EventLine is e on one line: its columns (c), then its message in the
// TUI's language, styled by kind (dimmed when future).
func EventLine(st text.Styles, e sim.Event, prefix string, c Cols, future bool) string {
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

// WrapEvent is e over as many lines as w needs, the message's continuation
// lines under its first column.
func WrapEvent(st text.Styles, e sim.Event, prefix string, c Cols, w int) []string {
	head := eventHead(e, prefix, c)
	hw := ansi.StringWidth(head)
	msg := termtext.Escape(eventText(e))
	var lines []string
	if w-hw < 16 {
		lines = text.WrapIndent(head+msg, w, 2)
	} else {
		pad := strings.Repeat(" ", hw)
		for i, l := range text.Wrap(msg, w-hw) {
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

// MetricsBar is the checker's counters on one line; a counter that changed
// with the last move is highlighted and marked ▲.
func MetricsBar(st text.Styles, m, prev model.Metrics, w int) string {
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

// FirstViolation is the snapshot's first violation in the TUI's language.
func FirstViolation(s player.Snapshot) string {
	if i18n.Current() == i18n.ZH && s.FirstViolationPhrase.ID != "" {
		return s.FirstViolationPhrase.In(lang())
	}
	return s.FirstViolation
}
