package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/lockstep-sim/lockstep/internal/shquote"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/tracefile"
)

const checkSynopsis = `Usage: lockstep check [--json] [--expect EXPECT] HISTORY.jsonl (or - for stdin)

Judges a history recorded elsewhere with lockstep's own checker: JSON lines
of what each client did (acquire, release, enter, leave, read, write, with
token and value) and, when known, what happened to the lock key on each
node (set, deleted, expired, with its owner and TTL) — docs/history-format.md.
A trace written by 'lockstep run --trace' or the harness is a history too
(docs/trace-format.md). Prints a report like 'lockstep run' (--json: one
JSON array, an object per history).

--expect takes what an expect: block holds, in YAML, e.g.
--expect 'safe: false' or --expect '{violations: ">= 1", lost_updates: 0}'.
Without it, a history passes when it is safe and not stuck.

Exit codes: 0 every expectation held (or the history is safe), 1 not,
2 bad input (unreadable file, a bad line: FILE:LINE: message, bad flag).`

// maxHistoryBytes bounds the file check reads (it keeps the history in
// memory to judge it in one pass).
const maxHistoryBytes = 1 << 30

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", checkSynopsis, stdout)
	asJSON := fs.Bool("json", false, "print one JSON array, an object per history, instead of text")
	expect := fs.String("expect", "", "the outcome to require, as an expect: block's YAML body (`EXPECT`)")
	path, rest := splitPath(args)
	if code, ok := parseFlags(fs, rest, stderr); !ok {
		return code
	}
	bad := func(format string, a ...any) int { return failf(stderr, "check", format, a...) }
	if path == "" {
		return bad("no history file: lockstep check HISTORY.jsonl (see 'lockstep help check')")
	}
	var xs []scenario.Expectation
	if *expect != "" {
		var err error
		if xs, err = scenario.ParseExpect("--expect", *expect); err != nil {
			return bad("%s", fileError(err))
		}
	}
	in, name, err := openHistory(path)
	if err != nil {
		return bad("%v", err)
	}
	defer in.Close()
	reps, err := tracefile.CheckHistory(name, io.LimitReader(in, maxHistoryBytes), xs)
	if err != nil {
		return bad("%v", err)
	}
	return reportChecks(reps, path, *expect, *asJSON, stdout)
}

// splitPath takes the one argument that is not a flag (the history file)
// out of args, wherever it stands, so that both "check FILE --json" and
// "check --json FILE" work.
func splitPath(args []string) (string, []string) {
	var rest []string
	path := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--expect" || a == "-expect":
			rest = append(rest, a)
			if i+1 < len(args) {
				i++
				rest = append(rest, args[i])
			}
		case len(a) > 1 && a[0] == '-': // a flag; "-" alone is stdin
			rest = append(rest, a)
		case path == "":
			path = a
		default:
			rest = append(rest, a) // a second file: parseFlags refuses it
		}
	}
	return path, rest
}

// reportChecks prints the reports and returns the exit code.
func reportChecks(reps []*runner.Report, path, expect string, asJSON bool, stdout io.Writer) int {
	code := exitOK
	for _, r := range reps {
		if !r.OK {
			code = exitFailed
		}
		args := []string{"lockstep", "check", path}
		if expect != "" {
			args = append(args, "--expect", expect)
		}
		r.Reproduce = shquote.Join(args)
	}
	if asJSON {
		writeJSON(stdout, reps)
		return code
	}
	for _, r := range reps {
		shown := *r
		shown.Scenario, shown.Title = termtext.Escape(r.Scenario), termtext.Escape(r.Title)
		shown.Reproduce = termtext.Escape(r.Reproduce)
		printText(stdout, func(w io.Writer) { shown.WriteText(w); fmt.Fprintln(w) })
	}
	return code
}

// openHistory opens the history to check: a file, or stdin for "-"; name
// is what error messages call it.
func openHistory(path string) (io.ReadCloser, string, error) {
	if path == "-" {
		return io.NopCloser(os.Stdin), "stdin", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", errors.New(fileError(err))
	}
	if st, err := f.Stat(); err == nil && st.Size() > maxHistoryBytes {
		f.Close()
		return nil, "", fmt.Errorf("%s: %d bytes: at most %d", path, st.Size(), maxHistoryBytes)
	}
	return f, path, nil
}
