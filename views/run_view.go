package views

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/views/panels"
	"github.com/lockstep-sim/lockstep/views/text"
)

// View draws the run view at the context's size.
func (m *RunModel) View() string {
	w, h := m.c.w, m.c.h
	if w < MinWidth || h < MinHeight {
		return text.TooSmall(w, h, MinWidth, MinHeight)
	}
	bottom := []string{text.Fit(panels.MetricsBar(m.c.st, m.snap.Metrics, m.prev, w), w), m.footer(w)}
	if m.prompt != nil && m.prompt.err != "" {
		// A refused answer: why, in full (up to three lines), over the
		// metrics, right above the prompt that stays open.
		why := text.WrapIndent("✖ "+termtext.Escape(m.prompt.err), w, 2)
		why = why[:min(len(why), 3)]
		for i := range why {
			why[i] = m.c.st.Bad.Render(text.Fit(why[i], w))
		}
		bottom = append(why, m.footer(w))
	}
	lines := make([]string, 0, h)
	lines = append(lines, m.header(w))
	lines = append(lines, m.body(w, h-1-len(bottom))...)
	lines = append(lines, bottom...)
	return text.Render(lines, h)
}

func (m *RunModel) header(w int) string {
	st := m.c.st
	play := tr("❚❚ paused")
	if m.clock.Playing() {
		play = tr("▶ playing")
	}
	if m.pl.AtEnd() {
		play = tr("■ over")
	}
	inj := m.recordedTag()
	if n := len(m.pl.Injected()); n > 0 {
		inj = fmt.Sprintf(tr(" │ %d injected"), n)
	}
	full := fmt.Sprintf(tr("%s │ %s │ t %s │ %s %s │ seed %d │ step %d/%d │ %s%s"),
		st.Title.Render("lockstep"), st.Header.Render(termtext.Escape(m.pl.Scenario().Name)), text.Secs(m.pl.Now()), play, text.SpeedLabel(m.clock.Speed()),
		m.snap.Seed, m.pl.StepAt(), m.pl.Steps(), termtext.Escape(scenario.StrategyLabel(m.snap.Strategy, m.snap.Client)), inj)
	if ansi.StringWidth(full) <= w {
		return text.Fit(full, w)
	}
	// Narrow: the scenario, time, play state and event count matter most.
	return text.Fit(fmt.Sprintf(tr("%s │ t %s │ %s %s │ step %d/%d │ seed %d │ %s%s"),
		st.Header.Render(termtext.Escape(m.pl.Scenario().Name)), text.Secs(m.pl.Now()), play, text.SpeedLabel(m.clock.Speed()),
		m.pl.StepAt(), m.pl.Steps(), m.snap.Seed, termtext.Escape(scenario.StrategyLabel(m.snap.Strategy, m.snap.Client)), inj), w)
}

func (m *RunModel) footer(w int) string {
	st := m.c.st
	if m.jump != nil {
		return m.gotoFooter(w)
	}
	if m.prompt != nil {
		return text.Fit(st.Focus.Render(tr("%s: ", m.prompt.label))+m.prompt.input.View()+st.Muted.Render(tr("  enter inject · esc cancel")), w)
	}
	if m.status != "" {
		// A status may quote the scenario (names, a validator's message).
		if m.statusOK {
			return text.Fit(st.Info.Render("ℹ "+termtext.Escape(m.status)), w)
		}
		return text.Fit(st.Bad.Render("✖ "+termtext.Escape(m.status)), w)
	}
	m.c.help.Width = w
	return text.Fit(m.c.help.ShortHelpView(m.c.keys.ShortHelp()), w)
}

// body lays out the panels in w×h: clients, nodes (and resource when wide)
// on top, then the timeline, then the log.
func (m *RunModel) body(w, h int) []string {
	st := m.c.st
	if m.detail {
		return text.FitLines(text.Box(st, tr("Detail  any key closes"), m.detailLines(w-2, h-2), w, h, true), w, h)
	}
	wide := w >= 100
	var cw, nw, rw int
	if wide {
		rw = min(30, w/5)
		cw = (w - rw) * 11 / 20
		nw = w - rw - cw
	} else {
		cw = w / 2
		nw = w - cw
	}
	cl, csel := panels.Clients(st, m.snap, cw-2, m.selC, m.target == panelClients)
	nl, nsel := panels.Nodes(st, m.snap, nw-2, m.selN, m.target == panelNodes, m.pl.Scenario().Lock.TTL)
	var rl []string
	if wide {
		rl = panels.Resource(st, m.snap.Resource, rw-2)
	}
	lay := layOut(h, max(len(cl), len(nl), len(rl))+2, !wide, len(m.snap.Clients), len(m.snap.Nodes))
	top := text.HJoin(
		text.Box(st, tr("Clients  belief │ truth"), window(cl, csel, lay.top-2), cw, lay.top, m.focus == panelClients),
		text.Box(st, tr("Nodes  key TTL by node clock"), window(nl, nsel, lay.top-2), nw, lay.top, m.focus == panelNodes),
	)
	if wide {
		title := tr("Resource")
		if m.target == panelResource {
			title = tr("›Resource")
		}
		top = text.HJoin(top, text.Box(st, title, rl, rw, lay.top, m.focus == panelResource))
	}
	out := append([]string{}, top...)
	if lay.res > 0 {
		line := panels.ResourceLine(st, m.snap.Resource)
		if m.target == panelResource {
			line = st.Selected.Render(text.Fit("›"+line[1:], w))
		}
		out = append(out, text.Fit(line, w))
	}
	tl := panels.Timeline(st, m.pl, m.snap, m.span, w-2, lay.tl-2)
	title := tr("Timeline  █ believes it holds · letters: key owner · ! overlap · ▼ fault · ✖ violation")
	if !wide {
		title = tr("Timeline █ belief · A owner · ! overlap · ▼ fault · ✖ violation")
	}
	out = append(out, text.Box(st, title, tl, w, lay.tl, m.focus == panelTimeline)...)
	logs, cut := m.logLines(w-2, lay.log-2)
	logTitle := tr("Log")
	if cut {
		logTitle = tr("Log  v: the first violation in full")
	}
	out = append(out, text.Box(st, logTitle, logs, w, lay.log, m.focus == panelLog)...)
	return text.FitLines(out, w, h)
}

// layout is the heights of the run view's panels.
type layout struct{ top, res, tl, log int }

// layOut shares h lines between the panels. topWant is what the top panels
// need, res whether the resource has a line of its own. The timeline keeps
// its client lanes (with the marks and the axis) before anything else: on a
// short terminal the resource line goes first, then the top panels shrink
// (down to one line, scrolled to the selection); node lanes come last.
func layOut(h, topWant int, res bool, clients, nodes int) layout {
	const logMin = 3 // one line of log
	l := layout{top: min(topWant, max(4, h*2/5))}
	if res {
		l.res = 1
	}
	rem := h - l.top - l.res
	tlMin := min(clients+4, max(4, h-3-logMin)) // lanes, marks, axis, border
	if rem < tlMin+logMin && l.res > 0 {
		l.res, rem = 0, rem+1
	}
	if short := tlMin + logMin - rem; short > 0 {
		cut := min(short, l.top-3)
		l.top, rem = l.top-cut, rem+cut
	}
	l.tl = min(clients+nodes+4, max(tlMin, rem*3/5))
	if rem-l.tl < logMin {
		l.tl = max(3, rem-logMin)
	}
	l.log = rem - l.tl
	return l
}

// window shows h of lines, scrolled so that line sel is visible.
func window(lines []string, sel, h int) []string {
	if len(lines) <= h || h <= 0 {
		return lines
	}
	start := max(0, min(sel-h/2, len(lines)-h))
	return lines[start : start+h]
}
