package explore

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// WriteText prints the result for people, in the current language
// (i18n.Current): a line about the search, a table of rates per strategy,
// which fault kinds the violating runs had, and each counterexample with
// the command that replays it.
func (res *Result) WriteText(w io.Writer) {
	l := i18n.Current()
	var runs int
	for _, sr := range res.Strategies {
		runs += sr.Runs
	}
	fmt.Fprint(w, l.Sprintf("explore %s: faults %s, 1-%d per run, seed %d, event budget %d per run\n", res.Scenario,
		strings.Join(res.Kinds, ","), res.MaxFaults, res.Seed, res.Budget))
	if res.Elapsed > 0 {
		fmt.Fprint(w, l.Sprintf("%s in %s (%.0f runs/s)\n", runsIn(l, runs), res.Elapsed.Round(time.Millisecond),
			float64(runs)/res.Elapsed.Seconds()))
	}
	if res.Interrupted {
		fmt.Fprint(w, l.Sprintf("interrupted: the rates cover the runs that finished, of %d per strategy (runs cut off were dropped)\n", res.Runs))
	}
	fmt.Fprintln(w)
	res.writeTable(w)
	for _, sr := range res.Strategies {
		fmt.Fprintln(w)
		sr.writeText(w, l, res.Budget)
	}
}

// writeTable is the table of rates, a row per strategy.
func (res *Result) writeTable(w io.Writer) {
	col := func(name string) string { return i18n.TC("explore column", name) }
	extra := res.extraCounts()
	head := []string{col("strategy"), col("nodes"), col("runs"), col("unsafe"), "95% " + col("interval"), col("lost updates"),
		col("stuck"), col("budget exhausted"), col("fencing rejections"), col("wrong releases")}
	if extra {
		head = append(head, col("unheld releases"), col("refused writes"), col("duplicate writes"), col("deadlocks"))
	}
	rows := [][]string{append(head, col("holds/s"))}
	for _, sr := range res.Strategies {
		v := sr.Violations
		row := []string{sr.Strategy, fmt.Sprint(sr.Nodes), fmt.Sprint(sr.Runs), fmt.Sprintf("%d (%s)", v.Count, pct(v.Rate)),
			pct(v.Low) + " – " + pct(v.High), pct(sr.LostUpdates.Rate), pct(sr.Stuck.Rate),
			fmt.Sprint(sr.BudgetExhausted.Count), fmt.Sprint(sr.FencingRejections), fmt.Sprint(sr.WrongReleases)}
		if extra {
			row = append(row, fmt.Sprint(sr.UnheldReleases), fmt.Sprint(sr.RefusedWrites), fmt.Sprint(sr.DuplicateWrites),
				fmt.Sprint(sr.Deadlocks))
		}
		rows = append(rows, append(row, fmt.Sprintf("%.3f", sr.Throughput)))
	}
	i18n.WriteTable(w, rows)
}

// writeText is one strategy's findings: what it ran without, runs cut
// short, and its counterexample or that it had none.
func (sr *StrategyResult) writeText(w io.Writer, l i18n.Lang, budget int64) {
	for _, d := range sr.Dropped {
		fmt.Fprint(w, l.Sprintf("%s: runs without %s\n", sr.Strategy, d.In(l)))
	}
	if n := sr.BudgetExhausted.Count; n > 0 {
		fmt.Fprint(w, l.Sprintf("%s: %s cut short by the event budget (%d events): not known safe (raise it with --budget)\n",
			sr.Strategy, runsIn(l, n), budget))
	}
	cx := sr.Counterexample
	if cx == nil {
		if sr.Violations.Count > 0 { // only in runs cut short: no counterexample to shrink
			fmt.Fprint(w, l.Sprintf("%s: violations only in runs cut short by the event budget\n", sr.Strategy))
			return
		}
		fmt.Fprint(w, l.Sprintf("%s: no violation in %s\n", sr.Strategy, runsIn(l, sr.Runs-sr.BudgetExhausted.Count)))
		return
	}
	kinds := make([]string, 0, len(sr.KindsInViolations))
	sep := ", "
	for _, k := range sr.KindsInViolations {
		kind := k.Kind // the format's word in zh, as --faults spells it
		if l == i18n.EN {
			kind = strings.ReplaceAll(k.Kind, "_", " ")
		}
		kinds = append(kinds, l.Sprintf("with a %s: %d", kind, k.Runs))
	}
	if l == i18n.ZH {
		sep = "，"
	}
	fmt.Fprint(w, l.Sprintf("%s: of the %s that violated safety, runs %s\n", sr.Strategy, runsIn(l, sr.Violations.Count),
		strings.Join(kinds, sep)))
	cx.writeText(w, l, budget)
}

// writeText is the counterexample: how it was shrunk, its faults, its
// first violation and where it was written.
func (cx *Counterexample) writeText(w io.Writer, l i18n.Lang, budget int64) {
	switch {
	case !cx.Shrunk:
		fmt.Fprint(w, l.Sprintf("  run %d, %s, not shrunk (interrupted):\n", cx.Run, faultCountIn(l, len(cx.OriginalFaults))))
	default:
		note := ""
		if !cx.Minimal {
			note = l.Sprintf(", shrink budget spent")
		}
		fmt.Fprint(w, l.Sprintf("  run %d shrunk from %s to %d in %s%s:\n", cx.Run,
			faultCountIn(l, len(cx.OriginalFaults)), len(cx.Faults), runsIn(l, cx.ShrinkRuns), note))
	}
	for _, f := range cx.faultLinesIn(l) {
		fmt.Fprintf(w, "    %s\n", f)
	}
	fv := cx.FirstViolation
	if cx.report != nil && cx.report.FirstViolation == fv {
		fv = cx.report.FirstViolationIn(l)
	}
	if fv != "" {
		fmt.Fprint(w, l.Sprintf("  first violation: %s\n", fv))
	}
	if cx.File != "" {
		fmt.Fprint(w, l.Sprintf("  written: %s\n  replay: %s\n", cx.File, ReplayCommand(cx.File, budget)))
	} else {
		fmt.Fprint(w, l.Sprintf("  (use --out DIR to write it as a scenario file)\n"))
	}
}

// faultLinesIn are the shrunk schedule's lines in l: Faults in English; in
// another language the time in its words (the fault's own description
// is English until faults/ has a catalogue).
func (cx *Counterexample) faultLinesIn(l i18n.Lang) []string {
	if l == i18n.EN || len(cx.schedule) != len(cx.Faults) {
		return cx.Faults
	}
	out := make([]string, len(cx.schedule))
	for i, f := range cx.schedule {
		out[i] = l.Sprintf("at %s: %s", f.At.String(), f.String())
	}
	return out
}

// runsIn is "1 run", "2 runs" in l (x/text's plural rules).
func runsIn(l i18n.Lang, n int) string { return l.Sprintf("%d runs", n) }

// faultCountIn is "1 fault", "2 faults" in l.
func faultCountIn(l i18n.Lang, n int) string { return l.Sprintf("%d faults", n) }

// runsText is "1 run", "2 runs" (the English of a counterexample file's
// story and of the progress line).
func runsText(n int) string { return plural(n, "run") }

// faultsText is "1 fault", "2 faults".
func faultsText(n int) string { return plural(n, "fault") }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// extraCounts reports whether any strategy counted an unheld release, a
// refused or duplicate write or a deadlock: the table lists those columns
// only then, as the run report lists those metrics only when not 0.
func (res *Result) extraCounts() bool {
	for _, sr := range res.Strategies {
		if sr.UnheldReleases+sr.RefusedWrites+sr.DuplicateWrites+sr.Deadlocks != 0 {
			return true
		}
	}
	return false
}
