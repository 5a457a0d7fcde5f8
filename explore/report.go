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
	fmt.Fprintf(w, "explore %s: faults %s, 1-%d per run, seed %d\n", res.Scenario,
		strings.Join(res.Kinds, ","), res.MaxFaults, res.Seed)
	if res.Elapsed > 0 {
		fmt.Fprintf(w, "%d runs in %s (%.0f runs/s)\n", runs, res.Elapsed.Round(time.Millisecond),
			float64(runs)/res.Elapsed.Seconds())
	}
	if res.Interrupted {
		fmt.Fprintf(w, "interrupted: the rates cover the runs that finished, of %d per strategy\n", res.Runs)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "strategy\tnodes\truns\tunsafe\t95% interval\tlost updates\tstuck\tfencing rejections\twrong releases")
	for _, sr := range res.Strategies {
		v := sr.Violations
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d (%s)\t%s – %s\t%s\t%s\t%d\t%d\n", sr.Strategy, sr.Nodes, sr.Runs,
			v.Count, pct(v.Rate), pct(v.Low), pct(v.High), pct(sr.LostUpdates.Rate), pct(sr.Stuck.Rate),
			sr.FencingRejections, sr.WrongReleases)
	}
	tw.Flush()
	for _, sr := range res.Strategies {
		fmt.Fprintln(w)
		cx := sr.Counterexample
		if cx == nil {
			fmt.Fprintf(w, "%s: no violation in %d runs\n", sr.Strategy, sr.Runs)
			continue
		}
		var kinds []string
		for _, k := range sr.KindsInViolations {
			kinds = append(kinds, fmt.Sprintf("%s %d", k.Kind, k.Runs))
		}
		fmt.Fprintf(w, "%s: violating runs had %s\n", sr.Strategy, strings.Join(kinds, ", "))
		switch {
		case !cx.Shrunk:
			fmt.Fprintf(w, "  run %d, %d fault(s), not shrunk (interrupted):\n", cx.Run, len(cx.OriginalFaults))
		default:
			note := ""
			if !cx.Minimal {
				note = ", shrink budget spent"
			}
			fmt.Fprintf(w, "  run %d shrunk from %d fault(s) to %d in %d runs%s:\n", cx.Run,
				len(cx.OriginalFaults), len(cx.Faults), cx.ShrinkRuns, note)
		}
		for _, f := range cx.Faults {
			fmt.Fprintf(w, "    %s\n", f)
		}
		if cx.FirstViolation != "" {
			fmt.Fprintf(w, "  first violation: %s\n", cx.FirstViolation)
		}
		if cx.File != "" {
			fmt.Fprintf(w, "  written: %s\n  replay: lockstep run -f %s\n", cx.File, cx.File)
		} else {
			fmt.Fprintf(w, "  (use --out DIR to write it as a scenario file)\n")
		}
	}
}
