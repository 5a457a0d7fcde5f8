package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lockstep-sim/lockstep/scenario"
)

// FileName is the base name of a counterexample's file and its scenario's
// name: <scenario>-<strategy>-<seed>.
func FileName(scenarioName, strategy string, seed uint64) string {
	return fmt.Sprintf("%s-%s-%d", scenarioName, strategy, seed)
}

// CounterexampleScenario is the scenario file form of cx: w's world (the
// strategy and its node count written out, so the file stands alone) with
// the shrunk schedule as its faults, expect: {safe: false}, and a story
// saying how it was found.
// path is where it will be written, for the replay command in the story.
func CounterexampleScenario(w *World, cx *Counterexample, res *Result, path string) *scenario.Scenario {
	out := *w.Base
	out.Name = FileName(res.Scenario, w.Strategy, res.Seed)
	out.Title = fmt.Sprintf("Found by explore: %s breaks with %d fault(s)", w.Strategy, len(cx.schedule))
	out.Faults = nil
	for _, f := range cx.schedule {
		out.Faults = append(out.Faults, scenario.FromFault(f))
	}
	out.Expect = []scenario.Expectation{{Metric: "safe", Op: "==", Value: 0, Bool: true, Raw: "false"}}
	out.Story = story(w, cx, res, path)
	return &out
}

// story tells what the search found, in plain text for the TUI's story pane.
func story(w *World, cx *Counterexample, res *Result, path string) string {
	var sr *StrategyResult
	for _, x := range res.Strategies {
		if x.Strategy == w.Strategy {
			sr = x
		}
	}
	var b strings.Builder
	para := func(format string, args ...any) {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(wrap(fmt.Sprintf(format, args...), 72))
		b.WriteString("\n")
	}
	file := ""
	if res.File != "" {
		file = "-f " + res.File + " "
	}
	para("Found by lockstep explore %s-s %s --strategies %s --faults %s --seed %d --max-faults %d.",
		file, res.Scenario, w.Strategy, strings.Join(res.Kinds, ","), res.Seed, res.MaxFaults)
	if sr != nil {
		v := sr.Violations
		para("%d of %d runs of %s violated safety: %s (95%% interval %s to %s). This is run %d's schedule of %d fault(s), %s.",
			v.Count, v.Runs, w.Strategy, pct(v.Rate), pct(v.Low), pct(v.High), cx.Run, len(cx.original), shrinkNote(cx))
	}
	var fl strings.Builder
	fl.WriteString("Faults:\n")
	for _, f := range cx.schedule {
		fl.WriteString("  " + FaultLine(f) + "\n")
	}
	b.WriteString("\n" + fl.String())
	rep := cx.report
	para("Outcome: violations %d, lost_updates %d, wrong_releases %d, stuck %t.",
		rep.Violations, rep.LostUpdates, rep.WrongReleases, rep.Stuck)
	if rep.FirstViolation != "" {
		para("First violation: %s.", strings.TrimSuffix(rep.FirstViolation, "."))
	}
	fmt.Fprintf(&b, "\nReplay it, or watch it:\n  lockstep run -f %s\n  lockstep tui -f %s -s %s\n",
		path, path, FileName(res.Scenario, w.Strategy, res.Seed))
	return b.String()
}

func shrinkNote(cx *Counterexample) string {
	switch {
	case !cx.Shrunk:
		return "not shrunk (the search was interrupted)"
	case cx.Minimal:
		return fmt.Sprintf("shrunk in %d runs until no single step (dropping a fault, shortening one, moving it earlier) kept the violation", cx.ShrinkRuns)
	}
	return fmt.Sprintf("shrunk in %d runs (the shrink budget ran out before it was minimal)", cx.ShrinkRuns)
}

// Write writes cx as DIR/<scenario>-<strategy>-<seed>.yaml and returns the
// path. Before writing it checks that the file loads and replays: the
// replay must violate safety, so `lockstep run -f` on it exits 0.
func Write(dir string, w *World, cx *Counterexample, res *Result) (string, error) {
	path := filepath.Join(dir, FileName(res.Scenario, w.Strategy, res.Seed)+".yaml")
	s := CounterexampleScenario(w, cx, res, path)
	data, err := scenario.Export(s, scenario.Options{}, nil)
	if err != nil {
		return "", fmt.Errorf("counterexample for %s: %w", w.Strategy, err)
	}
	if err := checkReplay(path, data); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", err
	}
	return path, nil
}

// checkReplay loads data as path would be loaded and runs its scenario.
func checkReplay(path string, data []byte) error {
	f, err := scenario.Load(path, data)
	if err != nil {
		return fmt.Errorf("counterexample does not load: %w", err)
	}
	r, err := scenario.NewRunner(f.Scenarios[0], scenario.Options{}, false)
	if err != nil {
		return err
	}
	defer r.Close()
	if rep := r.Run(); !rep.OK {
		return fmt.Errorf("%s: the counterexample does not replay (violations %d)", path, rep.Violations)
	}
	return nil
}

// ensureDir makes the output directory, so a bad --out fails before the
// search rather than after it.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	return nil
}

func pct(x float64) string { return fmt.Sprintf("%.2f%%", 100*x) }

// wrap breaks s into lines of at most width characters at spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		if i > 0 {
			if n+1+len(word) > width {
				b.WriteString("\n")
				n = 0
			} else {
				b.WriteString(" ")
				n++
			}
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}
