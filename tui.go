package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mattn/go-isatty"
	"github.com/muesli/termenv"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/tracefile"
	"github.com/lockstep-sim/lockstep/views"
)

const tuiSynopsis = `Usage: lockstep tui [-f FILE] [-s NAME] [--compare a,b] [--budget N]
       lockstep tui --trace FILE [-s NAME]

Opens the interactive view: pick a scenario, play, pause, step forward and
back, inject faults at the cursor, write the run as a scenario file, compare
two strategies side by side. Press ? inside for every key. NO_COLOR is
honoured. The TUI keeps every event of a run for stepping back, so a run
may take at most --budget kernel events (a tenth of what the headless
commands allow by default); a run that needs more is shown cut short.

--trace FILE opens a recorded trace (lockstep run --trace, the harness;
docs/trace-format.md) in the run view: stepping, the timeline, the log and
the panels, rebuilt from the trace alone. Nothing re-simulates it, so
faults cannot be injected. A file of several traces needs -s NAME.`

// cmdTUI opens the interactive view (also what `lockstep` with no arguments does).
func cmdTUI(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("tui", tuiSynopsis, stdout)
	file := fileFlag(fs)
	name := fs.String("s", "", "open scenario `NAME` at once instead of the picker")
	cmp := fs.String("compare", "", "compare two strategies `a,b` side by side (with -s: at once; otherwise after picking)")
	budget := boundedInt(fs, "budget", views.DefaultEventBudget, 1, scenario.MaxEventBudget,
		"`N` kernel events per run before it is cut short as BUDGET EXHAUSTED")
	tracePath := fs.String("trace", "", "open the recorded trace `FILE` instead of simulating (no fault injection)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if err := checkNonEmpty(fs, "f", "s", "trace"); err != nil {
		return failf(stderr, "tui", "%v", err)
	}
	if *tracePath != "" {
		if set(fs, "f") || *cmp != "" || set(fs, "budget") {
			return failf(stderr, "tui", "--trace opens a recorded trace: -f, --compare and --budget do not apply")
		}
		return tuiTrace(*tracePath, *name, stdout, stderr)
	}
	f, ok := loadCmd("tui", *file, nil, stderr)
	if !ok {
		return exitBadInput
	}
	cfg := views.Config{Open: *name, EventBudget: budget.v}
	if *cmp != "" {
		parts := strings.Split(*cmp, ",")
		if len(parts) != 2 || strings.TrimSpace(parts[0]) == "" || strings.TrimSpace(parts[1]) == "" {
			fmt.Fprint(stderr, i18n.T("lockstep tui: --compare takes two strategies, like --compare lua-release,redlock (got %q)\n", *cmp))
			return exitBadInput
		}
		cfg.Compare = [2]string{strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])}
	}
	if !haveTerminal(stderr) {
		return exitBadInput
	}
	m, err := views.New(f, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "lockstep tui: %v\n", err)
		return exitBadInput
	}
	return runProgram(m, stdout, stderr)
}

// haveTerminal says so on stderr when stdin is not a terminal.
func haveTerminal(stderr io.Writer) bool {
	if !isatty.IsTerminal(os.Stdin.Fd()) && !isatty.IsCygwinTerminal(os.Stdin.Fd()) {
		fmt.Fprint(stderr, i18n.T("lockstep: the TUI needs a terminal; for a headless replay run 'lockstep run' (see 'lockstep help')\n"))
		return false
	}
	return true
}

// maxTUITraceBytes bounds a trace the TUI opens: it keeps every event in
// memory (a bundled scenario's trace is at most ~20 MB).
const maxTUITraceBytes = 256 << 20

// tuiTrace opens a recorded trace in the run view. The file is read (and
// any problem reported as FILE:LINE: message) before the terminal is
// needed.
func tuiTrace(path, name string, stdout, stderr io.Writer) int {
	f, err := os.Open(path)
	if err != nil {
		return failf(stderr, "tui", "%s", fileError(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxTUITraceBytes {
		return failf(stderr, "tui", "%s: %d bytes: the TUI opens traces of at most %d bytes (lockstep check judges any size)", path, st.Size(), maxTUITraceBytes)
	}
	pl, err := tracefile.OpenTrace(path, io.LimitReader(f, maxTUITraceBytes), name)
	if err != nil {
		return failf(stderr, "tui", "%v", err)
	}
	defer pl.Close()
	if !haveTerminal(stderr) {
		return exitBadInput
	}
	m := views.NewTrace(pl, views.Config{})
	return runProgram(m, stdout, stderr)
}

// runProgram runs the TUI on the terminal until the user quits.
func runProgram(m *views.Model, stdout, stderr io.Writer) int {
	defer m.Close()
	if os.Getenv("NO_COLOR") != "" {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	// Decide the background before bubbletea owns stdin: querying the
	// terminal afterwards can hang.
	lipgloss.SetHasDarkBackground(termenv.HasDarkBackground())
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithOutput(stdout))
	if _, err := p.Run(); err != nil {
		fmt.Fprintf(stderr, "lockstep tui: %v\n", err)
		return exitBadInput
	}
	return exitOK
}
