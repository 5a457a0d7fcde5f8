package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
)

// View draws the run view at the context's size.
func (m *RunModel) View() string {
	w, h := m.c.w, m.c.h
	if w < MinWidth || h < MinHeight {
		return tooSmall(w, h, MinWidth, MinHeight)
	}
	bottom := []string{fit(metricsBar(m.c.st, m.snap.Metrics, m.prev, w), w), m.footer(w)}
	if m.prompt != nil && m.prompt.err != "" {
		// A refused answer: why, in full (up to three lines), over the
		// metrics, right above the prompt that stays open.
		why := wrapIndent("✖ "+termtext.Escape(m.prompt.err), w, 2)
		why = why[:min(len(why), 3)]
		for i := range why {
			why[i] = m.c.st.Bad.Render(fit(why[i], w))
		}
		bottom = append(why, m.footer(w))
	}
	lines := make([]string, 0, h)
	lines = append(lines, m.header(w))
	lines = append(lines, m.body(w, h-1-len(bottom))...)
	lines = append(lines, bottom...)
	return render(lines, h)
}

func (m *RunModel) header(w int) string {
	st := m.c.st
	play := tr("❚❚ paused")
	if m.clock.playing {
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
		st.Title.Render("lockstep"), st.Header.Render(termtext.Escape(m.pl.Scenario().Name)), secs(m.pl.Now()), play, speedLabel(m.clock.speed),
		m.snap.Seed, m.pl.StepAt(), m.pl.Steps(), termtext.Escape(scenario.StrategyLabel(m.snap.Strategy, m.snap.Client)), inj)
	if ansi.StringWidth(full) <= w {
		return fit(full, w)
	}
	// Narrow: the scenario, time, play state and event count matter most.
	return fit(fmt.Sprintf(tr("%s │ t %s │ %s %s │ step %d/%d │ seed %d │ %s%s"),
		st.Header.Render(termtext.Escape(m.pl.Scenario().Name)), secs(m.pl.Now()), play, speedLabel(m.clock.speed),
		m.pl.StepAt(), m.pl.Steps(), m.snap.Seed, termtext.Escape(scenario.StrategyLabel(m.snap.Strategy, m.snap.Client)), inj), w)
}

func (m *RunModel) footer(w int) string {
	st := m.c.st
	if m.jump != nil {
		return m.gotoFooter(w)
	}
	if m.prompt != nil {
		return fit(st.Focus.Render(m.prompt.label+": ")+m.prompt.input.View()+st.Muted.Render(tr("  enter inject · esc cancel")), w)
	}
	if m.status != "" {
		// A status may quote the scenario (names, a validator's message).
		if m.statusOK {
			return fit(st.Info.Render("ℹ "+termtext.Escape(m.status)), w)
		}
		return fit(st.Bad.Render("✖ "+termtext.Escape(m.status)), w)
	}
	m.c.help.Width = w
	return fit(m.c.help.ShortHelpView(m.c.keys.ShortHelp()), w)
}

// body lays out the panels in w×h: clients, nodes (and resource when wide)
// on top, then the timeline, then the log.
func (m *RunModel) body(w, h int) []string {
	st := m.c.st
	if m.detail {
		return fitLines(box(st, tr("Detail  any key closes"), m.detailLines(w-2, h-2), w, h, true), w, h)
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
	cl, csel := clientLines(st, m.snap, cw-2, m.selC, m.target == panelClients)
	nl, nsel := nodeLines(st, m.snap, nw-2, m.selN, m.target == panelNodes, m.pl.Scenario().Lock.TTL)
	var rl []string
	if wide {
		rl = resourceLines(st, m.snap.Resource, rw-2)
	}
	lay := layOut(h, max(len(cl), len(nl), len(rl))+2, !wide, len(m.snap.Clients), len(m.snap.Nodes))
	top := hjoin(
		box(st, tr("Clients  belief │ truth"), window(cl, csel, lay.top-2), cw, lay.top, m.focus == panelClients),
		box(st, tr("Nodes  key TTL by node clock"), window(nl, nsel, lay.top-2), nw, lay.top, m.focus == panelNodes),
	)
	if wide {
		title := tr("Resource")
		if m.target == panelResource {
			title = tr("›Resource")
		}
		top = hjoin(top, box(st, title, rl, rw, lay.top, m.focus == panelResource))
	}
	out := append([]string{}, top...)
	if lay.res > 0 {
		line := resourceLine(st, m.snap.Resource)
		if m.target == panelResource {
			line = st.Selected.Render(fit("›"+line[1:], w))
		}
		out = append(out, fit(line, w))
	}
	tl := timelineLines(st, m.pl, m.snap, m.span, w-2, lay.tl-2)
	title := tr("Timeline  █ believes it holds · letters: key owner · ! overlap · ▼ fault · ✖ violation")
	if !wide {
		title = tr("Timeline █ belief · A owner · ! overlap · ▼ fault · ✖ violation")
	}
	out = append(out, box(st, title, tl, w, lay.tl, m.focus == panelTimeline)...)
	logs, cut := m.logLines(w-2, lay.log-2)
	logTitle := tr("Log")
	if cut {
		logTitle = tr("Log  v: the first violation in full")
	}
	out = append(out, box(st, logTitle, logs, w, lay.log, m.focus == panelLog)...)
	return fitLines(out, w, h)
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

var stateStyle = map[string]func(Styles) func(...string) string{
	"paused":  func(s Styles) func(...string) string { return s.Warn.Render },
	"hung":    func(s Styles) func(...string) string { return s.Warn.Render },
	"crashed": func(s Styles) func(...string) string { return s.Bad.Render },
	"holding": func(s Styles) func(...string) string { return s.Good.Render },
	"working": func(s Styles) func(...string) string { return s.Good.Render },
}

// clientLines draws one line per client; it returns the lines and the index
// of the selected one.
func clientLines(st Styles, s player.Snapshot, w, sel int, active bool) ([]string, int) {
	nameW := 1
	for _, c := range s.Clients {
		nameW = max(nameW, ansi.StringWidth(termtext.Escape(c.Name)))
	}
	compact := w < 56
	out := make([]string, 0, len(s.Clients))
	for i, c := range s.Clients {
		mark := " "
		if i == sel {
			mark = "›"
			if !active {
				mark = "·"
			}
		}
		state := clientState(st, c)
		var belief string
		switch {
		case !c.Believes:
			belief = padCells(tr("✗ not held"), 21)
			if compact {
				belief = "✗" + strings.Repeat(" ", 11)
			}
		case c.Until < 0:
			belief = padCells(tr("✓ no expiry"), 21)
			if compact {
				belief = "✓ ∞" + strings.Repeat(" ", 9)
			}
		default:
			belief = fmt.Sprintf("%-21s", fmt.Sprintf("✓ →%s (%s)", secs(c.Until), signed(c.Remaining)))
			if compact {
				belief = fmt.Sprintf("✓→%s", short(c.Until))
				if c.Remaining < 0 {
					belief += "!"
				}
				belief = fmt.Sprintf("%-12s", belief)
			}
		}
		yn := func(b bool) string {
			if b {
				return "✓"
			}
			return "✗"
		}
		truth := fmt.Sprintf("key%s cs%s", yn(c.OwnsKey), yn(c.InCS))
		flag := ""
		if c.Mismatch {
			flag = " " + st.Bad.Render(tr("⚠ belief≠truth"))
			if compact {
				flag = " " + st.Bad.Render("⚠")
			}
		}
		if note := clientNotes(st, c, compact); note != "" {
			// Compact: in the belief column's padding when it fits there,
			// so that a narrow panel still shows it.
			if b := strings.TrimRight(belief, " ") + note; compact && ansi.StringWidth(b) <= 12 {
				belief = b + strings.Repeat(" ", 12-ansi.StringWidth(b))
			} else {
				flag += note
			}
		}
		tok := ""
		if c.Token != "" && !compact {
			tok = "  " + st.Muted.Render(termtext.Escape(c.Token))
			if c.Fence > 0 {
				tok += st.Muted.Render(fmt.Sprintf(" #%d", c.Fence))
			}
		}
		name := termtext.Escape(c.Name)
		name += strings.Repeat(" ", nameW-ansi.StringWidth(name))
		line := fmt.Sprintf("%s%s %s %s │ %s%s%s", mark, name, state, belief, truth, flag, tok)
		if i == sel && active {
			line = st.Selected.Render(ansi.Strip(line))
		}
		out = append(out, line)
	}
	return out, sel
}

// clientState is the state column: the client's state, or "⧗ pub/sub"
// while it waits for Redisson's release message between two attempts
// (lock.notify: pubsub), 9 columns wide either way.
func clientState(st Styles, c player.ClientSnap) string {
	if c.AwaitsRelease {
		return st.Info.Render("⧗ pub/sub")
	}
	state := padCells(tr(c.State), 9)
	if f, ok := stateStyle[c.State]; ok {
		state = f(st)(state)
	}
	return state
}

// clientNotes is what a client's line says of its driver, when it is at
// work: it has sent commands again (↻N). (A wait for a release message on
// pub/sub is a state of its own: clientState.)
func clientNotes(st Styles, c player.ClientSnap, compact bool) string {
	var out string
	if c.Resends > 0 {
		if compact {
			out += " " + st.Warn.Render(fmt.Sprintf("↻%d", c.Resends))
		} else {
			out += " " + st.Warn.Render(tr("↻%d resent", c.Resends))
		}
	}
	return out
}

// nodeLines draws each node and, under it, its keys with TTL bars.
func nodeLines(st Styles, s player.Snapshot, w, sel int, active bool, ttl interface{ Seconds() float64 }) ([]string, int) {
	compact := w < 50
	var out []string
	selLine := 0
	for i, n := range s.Nodes {
		mark := " "
		if i == sel {
			mark = "›"
			if !active {
				mark = "·"
			}
			selLine = len(out)
		}
		status := n.Status()
		sym := map[string]string{"up": "●", "down": "✖", "refusing": "◌", "partitioned": "⇹"}[status]
		stat := sym + " " + i18n.TC("node", status)
		switch status {
		case "down":
			stat = st.Bad.Render(stat)
		case "refusing", "partitioned":
			stat = st.Warn.Render(stat)
		}
		role := n.Role()
		if compact {
			role = role[:1]
		}
		clock := tr("clock ") + signed(n.ClockOffset)
		if n.ClockRate != 1 {
			clock += fmt.Sprintf(" ×%.2f", n.ClockRate)
		}
		if n.ClockOffset != 0 || n.ClockRate != 1 {
			clock = st.Warn.Render(clock)
		}
		line := fmt.Sprintf("%s%s %s %s %s", mark, termtext.Escape(n.Name), role, stat, clock)
		if i == sel && active {
			line = st.Selected.Render(ansi.Strip(line))
		}
		out = append(out, line)
		if note := refusedNote(st, n, compact); note != "" {
			out = append(out, "  "+note)
		}
		for _, k := range n.Keys {
			if !k.Lock {
				if !compact {
					out = append(out, st.Muted.Render(fmt.Sprintf("   %s = %s", termtext.Escape(k.Key), termtext.Escape(k.Value))))
				}
				continue
			}
			owner := termtext.Escape(k.Owner)
			if owner == "" {
				owner = "?"
			}
			name := termtext.Escape(k.Key)
			if compact && !s.MultiKey {
				name = "lock" // a hold's several keys keep their names: they differ
			}
			left := fmt.Sprintf("   %s %s", name, st.Header.Render("["+owner+"]"))
			var right string
			if k.TTL < 0 {
				right = tr("∞ no TTL")
			} else {
				bw := max(4, min(20, w-ansi.StringWidth(left)-10))
				frac := 0.0
				if t := ttl.Seconds(); t > 0 {
					frac = k.TTL.Seconds() / t
				}
				right = bar(frac, bw) + " " + short(k.TTL)
			}
			out = append(out, left+" "+right)
		}
		if len(n.Keys) == 0 && n.Up {
			out = append(out, st.Muted.Render(tr("   (no lock key)")))
		}
	}
	if len(s.Sentinels) > 0 {
		out = append(out, sentinelLine(st, s))
	}
	return out, selLine
}

// refusedNote is the line under a node about min_replicas_to_write: ⊘
// while it refuses writes with NOREPLICAS, and how many it refused; ""
// when it has refused none and refuses none.
func refusedNote(st Styles, n player.NodeSnap, compact bool) string {
	var out string
	if n.Refusing {
		if compact {
			out += " " + st.Bad.Render("⊘ NOREPLICAS")
		} else {
			out += " " + st.Bad.Render(tr("⊘ NOREPLICAS: refuses writes"))
		}
	}
	if n.Refused > 0 {
		out += " " + st.Warn.Render(tr("✗%d refused", n.Refused))
	}
	return out
}

// sentinelLine is the sentinels at a glance: one mark each (● reaches every
// master, ⇹ cut off from one), and for each master some of them hold down,
// how many of how many a failover needs.
func sentinelLine(st Styles, s player.Snapshot) string {
	var b strings.Builder
	b.WriteString(tr("sentinels "))
	for _, cut := range s.SentinelsCut {
		if cut {
			b.WriteString(st.Warn.Render("⇹"))
		} else {
			b.WriteString("●")
		}
	}
	need := s.SentinelQuorum
	for _, d := range s.SentinelsDown {
		if d.Down == 0 {
			continue
		}
		msg := tr(" · %s down for %d/%d (failover at %d)", termtext.Escape(d.Master), d.Down, len(s.Sentinels), need)
		if d.Down >= need {
			msg = st.Bad.Render(msg)
		}
		b.WriteString(msg)
	}
	return b.String()
}

func resourceLines(st Styles, r player.ResourceSnap, w int) []string {
	out := []string{
		tr("counter   %d", r.Value),
		tr("max token %d", r.MaxToken),
		tr("writes ✓%d ✗%d", r.Accepted, r.Rejected) + duplicatesNote(st, r),
	}
	if r.Fencing {
		out[1] += st.Muted.Render(tr(" (fencing on)"))
	} else {
		out[1] += st.Muted.Render(tr(" (no fencing)"))
	}
	if len(r.Named) > 0 {
		// One counter per named resource, not their sum.
		named := make([]string, 0, len(r.Named))
		for _, c := range r.Named {
			named = append(named, fmt.Sprintf(" %s %d", counterName(c.Name), c.Value))
		}
		out = append(append([]string{tr("counters:")}, named...), out[1:]...)
	}
	if len(r.Writes) > 0 {
		out = append(out, st.Muted.Render(tr("recent writes:")))
	}
	for i := len(r.Writes) - 1; i >= 0; i-- {
		wr := r.Writes[i]
		mark := st.Good.Render("✓")
		if !wr.Accepted {
			mark = st.Bad.Render(tr("✗ rejected"))
		}
		tok := ""
		if wr.Token > 0 {
			tok = fmt.Sprintf(" #%d", wr.Token)
		}
		out = append(out, fmt.Sprintf("%s %s=%d%s %s", short(timeNS(wr.At)), termtext.Escape(wr.Client), wr.Value, tok, mark))
	}
	return out
}

// counterName is how the panels name a counter: the unnamed one is
// "(none)" beside named ones.
func counterName(name string) string {
	if name == "" {
		return tr("(none)")
	}
	return termtext.Escape(name)
}

// duplicatesNote is the writes refused as duplicates (resource.idempotency:
// job), when there are any.
func duplicatesNote(st Styles, r player.ResourceSnap) string {
	if r.Duplicates == 0 {
		return ""
	}
	return " " + st.Warn.Render(tr("dup %d", r.Duplicates))
}

// resourceLine is the resource panel condensed to one line.
func resourceLine(st Styles, r player.ResourceSnap) string {
	counter := tr("counter %d", r.Value)
	if len(r.Named) > 0 {
		parts := make([]string, 0, len(r.Named))
		for _, c := range r.Named {
			parts = append(parts, fmt.Sprintf("%s=%d", counterName(c.Name), c.Value))
		}
		counter = tr("counters ") + strings.Join(parts, " ")
	}
	s := tr(" resource: %s · max token %d · writes ✓%d ✗%d%s", counter, r.MaxToken, r.Accepted, r.Rejected, duplicatesNote(st, r))
	if n := len(r.Writes); n > 0 {
		wr := r.Writes[n-1]
		mark := "✓"
		if !wr.Accepted {
			mark = "✗"
		}
		s += tr(" · last %s=%d%s at %s", termtext.Escape(wr.Client), wr.Value, mark, short(timeNS(wr.At)))
	}
	return s
}
