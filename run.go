package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/safefile"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/model/tracelog"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/views/mermaid"
)

const runSynopsis = `Usage: lockstep run [-f FILE] [-s NAME]... [--seed N] [--budget N] [--lua MODE]
                    [--json | --mermaid] [--trace FILE [--force]]

Replays scenarios headless, deterministically, and checks each scenario's
expect: block. Prints one block per scenario: verdict (SAFE/UNSAFE, STUCK),
metrics, each expectation with ✓ or ✗, the explanation of the first
violation, and for a failed one a reproduce: line that replays it as
printed. The same file and seed always give the same trace. --mermaid
prints a Mermaid sequenceDiagram of each run instead (paste it into any
Mermaid renderer).

--json prints exactly one JSON document. --trace FILE writes the trace as
JSON lines (docs/trace-format.md: a header with the world, the events with
message ids, the history the judge read, an end record with the hash),
atomically; it never replaces an input, nor an existing file unless
--force. 'lockstep tui --trace FILE' opens it, 'lockstep check FILE' judges
it. --trace - puts the trace alone on stdout and the reports on stderr; it
does not combine with --json.

Exit codes: 0 every expectation held, 1 an expectation failed (or a run
spent its --budget), 2 bad input (unreadable or invalid file, unknown
scenario name, bad flag, an output that could not be written).`

// headlessGC makes the garbage collector run less often in the headless
// commands (run, explore) unless GOGC says otherwise. A simulation allocates
// fast but keeps little alive (a world is a few MB), so at the default
// (collect whenever the heap doubles) explore's two workers spent a tenth of
// their time collecting; at 400 it is ~11 % more runs per second, for a
// larger peak heap (explore: ~20 MB -> ~75 MB resident). Nothing the
// simulation computes depends on it: the GC is not observable by it.
func headlessGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", runSynopsis, stdout)
	file := fileFlag(fs)
	var sel names
	fs.Var(&sel, "s", "run only scenario `NAME` (repeatable, or comma-separated)")
	var seed seedFlag
	fs.Var(&seed, "seed", "override every scenario's seed with `N` (>= 0)")
	asJSON := fs.Bool("json", false, "print one JSON array, an object per scenario, instead of text")
	tracePath := fs.String("trace", "", "write the event trace as JSON lines to `FILE` ('-' for stdout); never overwrites without --force")
	force := fs.Bool("force", false, "let --trace replace an existing file")
	mermaid := fs.Bool("mermaid", false, "print a Mermaid sequenceDiagram of each run instead of its report")
	lua := fs.String("lua", "fast", "how scripts run: `fast` (Go fast path) or interpreted (miniredis's Lua); same outcome")
	budget := budgetFlag(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	bad := func(format string, a ...any) int { return failf(stderr, "run", format, a...) }
	if err := checkNonEmpty(fs, "f", "trace"); err != nil {
		return bad("%v", err)
	}
	switch {
	case *mermaid && *asJSON:
		return bad("--mermaid and --json both print to stdout: pick one")
	case *mermaid && *tracePath != "":
		return bad("--mermaid prints a diagram, not a trace: drop --trace or --mermaid")
	case *asJSON && *tracePath == "-":
		return bad("--json and --trace - would mix two formats on stdout: write the trace to a file (--trace FILE)")
	}
	// The text report shows no trace hash: only --json and --trace need
	// one, so a plain run formats no trace line nobody reads (NoHash).
	opts := scenario.Options{Seed: seed.v, EventBudget: budget.v, NoHash: !*asJSON && *tracePath == ""}
	switch *lua {
	case "fast":
	case "interpreted":
		opts.LuaInterpreted = true
	default:
		return bad("--lua must be fast or interpreted, not %q", *lua)
	}
	if *tracePath != "" && *tracePath != "-" {
		if err := checkOutput(*tracePath, *force, *file); err != nil {
			return bad("--trace: %v", err)
		}
	}
	headlessGC()
	f, ok := loadCmd("run", *file, sel, stderr)
	if !ok {
		return exitBadInput
	}
	todo, err := pick(f, sel)
	if err != nil {
		return bad("%s", fileError(err))
	}
	if *mermaid {
		return runMermaid(todo, opts, stdout, stderr)
	}
	tr, err := openTrace(*tracePath, *force, stdout)
	if err != nil {
		return bad("--trace: %v", err)
	}
	// With --trace - stdout carries the trace alone (one format for a
	// script to read); the reports go to stderr.
	text := stdout
	if *tracePath == "-" {
		text = stderr
	}
	reports := make([]*runner.Report, 0, len(todo))
	for _, s := range todo {
		rep, err := runOne(s, opts, tr.out)
		if err != nil {
			tr.abort()
			return bad("%v", err)
		}
		reports = append(reports, rep)
		if !*asJSON {
			shown := *rep
			shown.Title = termtext.Escape(rep.Title)
			shown.Reproduce = reproduce("run", fs, []string{"-s", rep.Scenario, "--seed", strconv.FormatUint(rep.Seed, 10)},
				"json", "trace", "force", "mermaid")
			printText(text, func(w io.Writer) { shown.WriteText(w); fmt.Fprintln(w) })
		}
	}
	if err := tr.close(); err != nil {
		return bad("--trace: %v", err)
	}
	code := exitOK
	failed := 0
	for _, r := range reports {
		if !r.OK {
			code = exitFailed
			failed++
		}
	}
	if *asJSON {
		writeJSON(stdout, reports)
	} else {
		fmt.Fprint(text, i18n.T("%d scenarios: %d ok, %d failed\n", len(reports), len(reports)-failed, failed))
	}
	return code
}

// runMermaid prints each scenario's diagram.
func runMermaid(todo []*scenario.Scenario, opts scenario.Options, stdout, stderr io.Writer) int {
	for _, s := range todo {
		d, err := mermaid.Scenario(s, opts)
		if err != nil {
			return failf(stderr, "run", "%v", err)
		}
		io.WriteString(stdout, termtext.EscapeKeepLines(d)+"\n")
	}
	return exitOK
}

// trace is where --trace goes: nowhere, stdout, or a file written
// atomically (it appears whole at close, or not at all).
type trace struct {
	out  io.Writer // nil: no trace
	buf  *bufio.Writer
	file *safefile.File
}

func openTrace(path string, force bool, stdout io.Writer) (*trace, error) {
	t := &trace{}
	switch path {
	case "":
		return t, nil
	case "-":
		t.buf = bufio.NewWriter(stdout)
	default:
		f, err := safefile.Create(path, force)
		if err != nil {
			return nil, err
		}
		t.file, t.buf = f, bufio.NewWriter(f)
	}
	t.out = t.buf
	return t, nil
}

// close flushes the trace and puts its file in place; any write error
// since the first line is reported here.
func (t *trace) close() error {
	if t.buf == nil {
		return nil
	}
	err := t.buf.Flush()
	if t.file != nil {
		if err != nil {
			t.file.Abort()
			return err
		}
		return t.file.Commit()
	}
	return err
}

func (t *trace) abort() {
	if t.file != nil {
		t.file.Abort()
	}
}

// runOne plays one scenario to the end, writing its trace (header,
// events, history, end: docs/trace-format.md) to out if asked.
func runOne(s *scenario.Scenario, opts scenario.Options, out io.Writer) (*runner.Report, error) {
	r, err := runner.New(s, opts, false)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if out == nil {
		return r.Run(), nil
	}
	tw := tracelog.NewWriter(out, r.TraceHeader())
	r.RecordTrace(tw)
	rep := r.Run()
	r.EndTrace(tw)
	// An error here sticks in out's writer too and is reported when the
	// trace is closed.
	tw.Close()
	return rep, nil
}
