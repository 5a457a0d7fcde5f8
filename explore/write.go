package explore

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lockstep-sim/lockstep/internal/safefile"
	"github.com/lockstep-sim/lockstep/internal/shquote"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// FileName is the base name of a counterexample's file and its scenario's
// name: <scenario>-<strategy>-s<seed>-r<runs>-m<max faults>-<tag>, where tag
// is a short hash of the fault kinds and the event budget. Everything that
// decides the search is in it, so a search with other flags never picks
// the name of an earlier one.
func FileName(res *Result, strategy string) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s|%d", strings.Join(res.Kinds, ","), res.Budget)
	suffix := fmt.Sprintf("-%s-s%d-r%d-m%d-%06x", strategy, res.Seed, res.Runs, res.MaxFaults, h.Sum32()&0xffffff)
	// The name is also the counterexample's scenario name, which the loader
	// bounds: the parameters stay whole, the base name gives way.
	base := res.Scenario
	if room := scenario.MaxNameLen - len(suffix); len(base) > room {
		base = strings.TrimRight(base[:max(room, 1)], "-")
	}
	return base + suffix
}

// CounterexampleScenario is the scenario file form of cx: w's world (the
// strategy and its node count written out, so the file stands alone) with
// the shrunk schedule as its faults, expect: {safe: false}, and a story
// saying how it was found.
// path is where it will be written, for the replay command in the story.
func CounterexampleScenario(w *World, cx *Counterexample, res *Result, path string) *scenario.Scenario {
	out := *w.Base
	out.Name = FileName(res, w.Strategy)
	out.Title = fmt.Sprintf("Found by explore: %s breaks with %s", w.Strategy, faultsText(len(cx.schedule)))
	out.Faults = slices.Clone(cx.schedule)
	out.Expect = []scenario.Expectation{{Metric: model.MetricSafe, Op: "==", Value: 0, Bool: true, Raw: "false"}}
	out.Story = story(w, cx, res, path)
	out.I18n = nil // the base scenario's translations tell another story
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
	para("Found by %s.", res.Command(w.Strategy))
	if sr != nil {
		v := sr.Violations
		para("%d of %s of %s violated safety: %s (95%% interval %s to %s). This is run %d's schedule of %s, %s.",
			v.Count, runsText(v.Runs), w.Strategy, pct(v.Rate), pct(v.Low), pct(v.High), cx.Run, faultsText(len(cx.original)), shrinkNote(cx))
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
	fmt.Fprintf(&b, "\nReplay it, or watch it:\n  %s\n  lockstep tui -f %s -s %s\n",
		ReplayCommand(path, res.Budget), shquote.Quote(path), FileName(res, w.Strategy))
	return b.String()
}

func shrinkNote(cx *Counterexample) string {
	switch {
	case !cx.Shrunk:
		return "not shrunk (the search was interrupted)"
	case cx.Minimal:
		return fmt.Sprintf("shrunk in %s until no single step (dropping a fault, shortening one, moving it earlier) kept the violation", runsText(cx.ShrinkRuns))
	}
	return fmt.Sprintf("shrunk in %s (the shrink budget ran out before it was minimal)", runsText(cx.ShrinkRuns))
}

// Write writes cx under dir as <FileName>.yaml, or, when that file exists,
// the first free <FileName>-2.yaml, -3.yaml ...: it never replaces a file.
// It returns the path written. The file appears whole or not at all
// (internal/safefile). With check it first proves the file loads and
// replays: the replay must violate safety, so `lockstep run -f` on it
// exits 0.
func Write(dir string, w *World, cx *Counterexample, res *Result, check bool) (string, error) {
	base := filepath.Join(dir, FileName(res, w.Strategy))
	for i := 1; i <= safefile.MaxSuffix; i++ {
		path := base + ".yaml"
		if i > 1 {
			path = fmt.Sprintf("%s-%d.yaml", base, i)
		}
		if _, err := os.Lstat(path); err == nil {
			continue
		}
		// The story names the path, so the data is made for each candidate.
		data, err := scenario.Export(CounterexampleScenario(w, cx, res, path), scenario.Options{}, nil)
		if err != nil {
			return "", fmt.Errorf("counterexample for %s: %w", w.Strategy, err)
		}
		if check {
			if err := checkReplay(path, data, w.Budget); err != nil {
				return "", err
			}
		}
		err = safefile.WriteFile(path, data, false)
		if errors.Is(err, safefile.ErrExists) {
			continue // it appeared meanwhile: take the next name
		}
		if err != nil {
			return "", err
		}
		return path, nil
	}
	return "", fmt.Errorf("%s.yaml and %d numbered variants already exist", base, safefile.MaxSuffix-1)
}

// ReplayCommand is the command that replays a written counterexample: the
// event budget it was found under goes with it when it is not the default.
func ReplayCommand(path string, budget int64) string {
	cmd := "lockstep run -f " + shquote.Quote(path)
	if budget != 0 && budget != scenario.DefaultEventBudget {
		cmd += fmt.Sprintf(" --budget %d", budget)
	}
	return cmd
}

// Command is the explore command line that makes this result's search for
// strategy: every flag that decides it.
func (res *Result) Command(strategy string) string {
	var b strings.Builder
	b.WriteString("lockstep explore")
	if res.File != "" {
		b.WriteString(" -f " + shquote.Quote(res.File))
	}
	fmt.Fprintf(&b, " -s %s --strategies %s --faults %s --runs %d --seed %d --max-faults %d",
		res.Scenario, strategy, strings.Join(res.Kinds, ","), res.Runs, res.Seed, res.MaxFaults)
	if res.Budget != 0 && res.Budget != scenario.DefaultEventBudget {
		fmt.Fprintf(&b, " --budget %d", res.Budget)
	}
	return b.String()
}

// checkReplay loads data as path would be loaded and runs its scenario.
func checkReplay(path string, data []byte, budget int64) error {
	f, err := scenario.Load(path, data)
	if err != nil {
		return fmt.Errorf("counterexample does not load: %w", err)
	}
	r, err := runner.New(f.Scenarios[0], scenario.Options{EventBudget: budget}, false)
	if err != nil {
		return err
	}
	defer r.Close()
	if rep := r.Run(); !rep.OK {
		return fmt.Errorf("%s: the counterexample does not replay (violations %d)", path, rep.Violations)
	}
	return nil
}

// checkOutDir makes the output directory and proves it takes new files,
// so a bad --out fails before the search rather than after it.
func checkOutDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if err := safefile.CheckTarget(filepath.Join(dir, ".lockstep-out-check"), true); err != nil {
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
