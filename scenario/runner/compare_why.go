package runner

import (
	"fmt"
	"slices"
	"time"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// columnWhy is what a column's explanation cites, as the run traced it:
// Redlock's refusals (why it stays safe where a single instance is not:
// how many, and the first), the faults that struck before the first
// violation (its context). It keeps the
// trace lines' ids and arguments, so WriteText renders them in the
// language asked; the English Why and FaultsBefore are rendered from it
// once, when the column is made.
type columnWhy struct {
	refusals     int
	firstRefusal traceLine
	faults       []traceLine // the faults so far, until the first violation
	violated     bool
}

// traceLine is one line of the trace, unrendered.
type traceLine struct {
	at        time.Duration
	proc, msg string
	id        string
	args      sim.Args
}

// observe is the runner's sink.
func (w *columnWhy) observe(e sim.Event) {
	switch e.Kind {
	case "refused":
		if w.refusals == 0 {
			w.firstRefusal = lineOf(e)
		}
		w.refusals++
	case "fault":
		if !w.violated {
			w.faults = append(w.faults, lineOf(e))
		}
	case "VIOLATION":
		w.violated = true
	}
}

func lineOf(e sim.Event) traceLine {
	return traceLine{at: e.At, proc: e.Proc, msg: e.Msg, id: e.ID, args: slices.Clone(e.Args)}
}

// in is the line's message in l: rendered from its id in a language other
// than English, the English msg itself otherwise, and whenever the
// catalogue cannot render it (as the TUI's log does).
func (t traceLine) in(l i18n.Lang) string {
	if l != i18n.EN && t.id != "" {
		if s, ok := tracemsg.RenderIn(string(l), t.id, t.args); ok {
			return s
		}
	}
	return t.msg
}

// faultsBeforeIn is FaultsBefore in l: each fault before the first
// violation, with its time; nil when there was no violation.
func (w *columnWhy) faultsBeforeIn(l i18n.Lang) []string {
	if !w.violated {
		return nil
	}
	out := make([]string, len(w.faults))
	for i, f := range w.faults {
		out[i] = fmt.Sprintf("%s %s", sim.FormatTime(f.at), f.in(l))
	}
	return out
}

// whyIn is the column's Why in l: the first violation (the judge's
// phrase), else the refusals that kept it safe, else that it was safe.
func (c *Column) whyIn(l i18n.Lang) string {
	switch {
	case !c.Safe:
		return c.Report.in(l, c.FirstViolation, c.FirstViolationPhrase)
	case c.why.refusals > 0:
		f := c.why.firstRefusal
		first := l.Sprintf("%s at %s: %s", f.proc, sim.FormatTime(f.at), f.in(l))
		return l.Sprintf("no two clients ever held the lock at once; %d attempt(s) refused without a valid quorum, the first by %s",
			c.why.refusals, first)
	}
	return l.Sprintf("no two clients ever held the lock at once")
}

// skippedIn are the faults the run's world skipped, in l: Skipped itself
// in English, or when the report's lines are not Skipped's (a caller set
// Skipped, or the report was not made by a Runner).
func (rep *Report) skippedIn(l i18n.Lang) []string {
	if l == i18n.EN || len(rep.skipped) != len(rep.Skipped) {
		return rep.Skipped
	}
	out := make([]string, len(rep.skipped))
	for i, s := range rep.skipped {
		if s.msg != rep.Skipped[i] {
			return rep.Skipped
		}
		out[i] = s.in(l)
	}
	return out
}
