package explore

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteText prints the result for people: a line about the search, a table
// of rates per strategy, which fault kinds the violating runs had, and each
// counterexample with the command that replays it.
func (res *Result) WriteText(w io.Writer) {
	var runs int
	for _, sr := range res.Strategies {
		runs += sr.Runs
	}
	fmt.Fprintf(w, "explore %s: faults %s, 1-%d per run, seed %d, event budget %d per run\n", res.Scenario,
		strings.Join(res.Kinds, ","), res.MaxFaults, res.Seed, res.Budget)
	if res.Elapsed > 0 {
		fmt.Fprintf(w, "%s in %s (%.0f runs/s)\n", runsText(runs), res.Elapsed.Round(time.Millisecond),
			float64(runs)/res.Elapsed.Seconds())
	}
	if res.Interrupted {
		fmt.Fprintf(w, "interrupted: the rates cover the runs that finished, of %d per strategy (runs cut off were dropped)\n", res.Runs)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	extra := res.extraCounts()
	fmt.Fprint(tw, "strategy\tnodes\truns\tunsafe\t95% interval\tlost updates\tstuck\tbudget exhausted\tfencing rejections\twrong releases")
	if extra {
		fmt.Fprint(tw, "\tunheld releases\trefused writes\tduplicate writes\tdeadlocks")
	}
	fmt.Fprintln(tw, "\tholds/s")
	for _, sr := range res.Strategies {
		v := sr.Violations
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d (%s)\t%s – %s\t%s\t%s\t%d\t%d\t%d", sr.Strategy, sr.Nodes, sr.Runs,
			v.Count, pct(v.Rate), pct(v.Low), pct(v.High), pct(sr.LostUpdates.Rate), pct(sr.Stuck.Rate),
			sr.BudgetExhausted.Count, sr.FencingRejections, sr.WrongReleases)
		if extra {
			fmt.Fprintf(tw, "\t%d\t%d\t%d\t%d", sr.UnheldReleases, sr.RefusedWrites, sr.DuplicateWrites, sr.Deadlocks)
		}
		fmt.Fprintf(tw, "\t%.3f\n", sr.Throughput)
	}
	tw.Flush()
	for _, sr := range res.Strategies {
		fmt.Fprintln(w)
		for _, d := range sr.Dropped {
			fmt.Fprintf(w, "%s: runs without %s\n", sr.Strategy, d)
		}
		if n := sr.BudgetExhausted.Count; n > 0 {
			fmt.Fprintf(w, "%s: %s cut short by the event budget (%d events): not known safe (raise it with --budget)\n",
				sr.Strategy, runsText(n), res.Budget)
		}
		cx := sr.Counterexample
		if cx == nil {
			if sr.Violations.Count > 0 { // only in runs cut short: no counterexample to shrink
				fmt.Fprintf(w, "%s: violations only in runs cut short by the event budget\n", sr.Strategy)
				continue
			}
			fmt.Fprintf(w, "%s: no violation in %s\n", sr.Strategy, runsText(sr.Runs-sr.BudgetExhausted.Count))
			continue
		}
		var kinds []string
		for _, k := range sr.KindsInViolations {
			kinds = append(kinds, fmt.Sprintf("with a %s: %d", strings.ReplaceAll(k.Kind, "_", " "), k.Runs))
		}
		fmt.Fprintf(w, "%s: of the %s that violated safety, runs %s\n", sr.Strategy, runsText(sr.Violations.Count), strings.Join(kinds, ", "))
		switch {
		case !cx.Shrunk:
			fmt.Fprintf(w, "  run %d, %s, not shrunk (interrupted):\n", cx.Run, faultsText(len(cx.OriginalFaults)))
		default:
			note := ""
			if !cx.Minimal {
				note = ", shrink budget spent"
			}
			fmt.Fprintf(w, "  run %d shrunk from %s to %d in %s%s:\n", cx.Run,
				faultsText(len(cx.OriginalFaults)), len(cx.Faults), runsText(cx.ShrinkRuns), note)
		}
		for _, f := range cx.Faults {
			fmt.Fprintf(w, "    %s\n", f)
		}
		if cx.FirstViolation != "" {
			fmt.Fprintf(w, "  first violation: %s\n", cx.FirstViolation)
		}
		if cx.File != "" {
			fmt.Fprintf(w, "  written: %s\n  replay: %s\n", cx.File, ReplayCommand(cx.File, res.Budget))
		} else {
			fmt.Fprintf(w, "  (use --out DIR to write it as a scenario file)\n")
		}
	}
}

// runsText is "1 run", "2 runs".
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
