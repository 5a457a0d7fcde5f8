// Package panels draws the pieces of the TUI's screens from what the
// scenario layer hands over: the clients, nodes and resource panels and
// the metrics bar from a player.Snapshot, the timeline from a Player's
// history, the log's lines from trace events. Each is a function from data
// and a size to lines of that many cells (views/text); none keeps state
// or knows bubbletea, so the run view and the compare view draw the same
// panels and tests can call them alone.
package panels

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/views/text"
)

var stateStyle = map[string]func(text.Styles) func(...string) string{
	"paused":  func(s text.Styles) func(...string) string { return s.Warn.Render },
	"hung":    func(s text.Styles) func(...string) string { return s.Warn.Render },
	"crashed": func(s text.Styles) func(...string) string { return s.Bad.Render },
	"holding": func(s text.Styles) func(...string) string { return s.Good.Render },
	"working": func(s text.Styles) func(...string) string { return s.Good.Render },
}

// Clients draws one line per client; it returns the lines and the index
// of the selected one.
func Clients(st text.Styles, s player.Snapshot, w, sel int, active bool) ([]string, int) {
	nameW := 1
	for _, c := range s.Clients {
		nameW = max(nameW, ansi.StringWidth(termtext.Escape(c.Name)))
	}
	compact := w < 56
	out := make([]string, 0, len(s.Clients))
	for i, c := range s.Clients {
		mark := selMark(i, sel, active)
		state := clientState(st, c)
		var belief string
		switch {
		case !c.Believes:
			belief = text.Pad(tr("✗ not held"), 21)
			if compact {
				belief = "✗" + strings.Repeat(" ", 11)
			}
		case c.Until < 0:
			belief = text.Pad(tr("✓ no expiry"), 21)
			if compact {
				belief = "✓ ∞" + strings.Repeat(" ", 9)
			}
		default:
			belief = fmt.Sprintf("%-21s", fmt.Sprintf("✓ →%s (%s)", text.Secs(c.Until), text.Signed(c.Remaining)))
			if compact {
				belief = fmt.Sprintf("✓→%s", text.Short(c.Until))
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
func clientState(st text.Styles, c player.ClientSnap) string {
	if c.AwaitsRelease {
		return st.Info.Render("⧗ pub/sub")
	}
	state := text.Pad(tr(c.State), 9)
	if f, ok := stateStyle[c.State]; ok {
		state = f(st)(state)
	}
	return state
}

// clientNotes is what a client's line says of its driver, when it is at
// work: it has sent commands again (↻N). (A wait for a release message on
// pub/sub is a state of its own: clientState.)
func clientNotes(st text.Styles, c player.ClientSnap, compact bool) string {
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

// selMark is the mark before line i of a panel whose selected line is sel:
// › in the panel that has the focus, · in another, blank elsewhere.
func selMark(i, sel int, active bool) string {
	switch {
	case i != sel:
		return " "
	case active:
		return "›"
	}
	return "·"
}

// statusSym is the symbol of a node's status (NodeSnap.Status).
var statusSym = map[string]string{"up": "●", "down": "✖", "refusing": "◌", "partitioned": "⇹"}

// Nodes draws each node and, under it, its keys with TTL bars.
func Nodes(st text.Styles, s player.Snapshot, w, sel int, active bool, ttl interface{ Seconds() float64 }) ([]string, int) {
	compact := w < 50
	var out []string
	selLine := 0
	for i, n := range s.Nodes {
		mark := selMark(i, sel, active)
		if i == sel {
			selLine = len(out)
		}
		status := n.Status()
		sym := statusSym[status]
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
		clock := tr("clock ") + text.Signed(n.ClockOffset)
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
				right = text.Bar(frac, bw) + " " + text.Short(k.TTL)
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
func refusedNote(st text.Styles, n player.NodeSnap, compact bool) string {
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
func sentinelLine(st text.Styles, s player.Snapshot) string {
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

// Resource is the resource panel: counters, the highest token, the
// writes accepted and refused, then the recent writes, newest first.
func Resource(st text.Styles, r player.ResourceSnap, w int) []string {
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
		out = append(out, fmt.Sprintf("%s %s=%d%s %s", text.Short(timeNS(wr.At)), termtext.Escape(wr.Client), wr.Value, tok, mark))
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
func duplicatesNote(st text.Styles, r player.ResourceSnap) string {
	if r.Duplicates == 0 {
		return ""
	}
	return " " + st.Warn.Render(tr("dup %d", r.Duplicates))
}

// ResourceLine is the resource panel condensed to one line.
func ResourceLine(st text.Styles, r player.ResourceSnap) string {
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
		s += tr(" · last %s=%d%s at %s", termtext.Escape(wr.Client), wr.Value, mark, text.Short(timeNS(wr.At)))
	}
	return s
}
