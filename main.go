// Command lockstep makes the failure modes of Redis distributed locks
// visible and reproducible: a deterministic simulator with a virtual clock
// runs lock clients against in-process Redis nodes while faults (GC pauses,
// clock jumps, failover, partitions, crashes) strike on schedule.
//
// main.go holds the command line only: subcommands, flags, exit codes.
package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/prebuilt"
)

//go:embed scenarios.yaml
var bundled []byte

// bundledName is how error messages and reports name the embedded file.
const bundledName = "scenarios.yaml"

// Exit codes: distinct, so a CI script can tell a broken lock from a broken file.
const (
	exitOK       = 0 // every expectation held
	exitFailed   = 1 // an expectation failed
	exitBadInput = 2 // the file, a flag or a name is wrong
)

const usage = `lockstep — watch Redis distributed locks fail, deterministically.

Usage:
  lockstep                         open the TUI on the bundled scenarios
  lockstep tui [-f FILE] [-s NAME] the TUI on another file, or straight into one scenario
  lockstep run [flags]             replay scenarios headless and check their expectations
  lockstep compare -s NAME [flags] run one scenario under several strategies, side by side
  lockstep explore -s NAME [flags] search random fault schedules for violations; shrink what breaks
  lockstep check HISTORY.jsonl     judge a history recorded elsewhere (or a trace) with the same checker
  lockstep tui --trace FILE        open a recorded trace in the run view
  lockstep list [-f FILE]          list the scenarios of a file
  lockstep help [COMMAND]          show help

Run 'lockstep help run' for the flags of a command.
--lang en|zh (every command; else LOCKSTEP_LANG, else the locale) picks the language.
Exit codes: 0 every expectation held, 1 an expectation failed, 2 bad input.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code, which keeps the
// command line testable.
func run(args []string, stdout, stderr io.Writer) int {
	args, code, ok := chooseLang(args, os.Getenv, stderr)
	if !ok {
		return code
	}
	if len(args) == 0 {
		return cmdTUI(nil, stdout, stderr)
	}
	cmds := map[string]func([]string, io.Writer, io.Writer) int{
		"run": cmdRun, "list": cmdList, "compare": cmdCompare, "explore": cmdExplore,
		"check": cmdCheck,
	}
	switch cmd := args[0]; cmd {
	case "tui": // the terminal is bubbletea's: no wrapper between them
		return cmdTUI(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			return run([]string{args[1], "--help"}, stdout, stderr)
		}
		return checked("help", stdout, stderr, func(w io.Writer) int {
			fmt.Fprint(w, i18n.T(usage))
			return exitOK
		})
	default:
		if c, ok := cmds[cmd]; ok {
			return checked(cmd, stdout, stderr, func(w io.Writer) int { return c(args[1:], w, stderr) })
		}
	}
	fmt.Fprint(stderr, i18n.T("lockstep: unknown command %q\n\n%s", args[0], i18n.T(usage)))
	return exitBadInput
}

// checked runs a command whose stdout is watched: if any write to it failed
// (a full disk, a closed pipe), the output is incomplete and the command
// exits 2 with a message, whatever it would have returned.
func checked(cmd string, stdout, stderr io.Writer, body func(io.Writer) int) int {
	cw := &checkedWriter{w: stdout}
	code := body(cw)
	if cw.err != nil {
		return failf(stderr, cmd, "writing to stdout: %v", cw.err)
	}
	return code
}

// loadScenario reads FILE (or the bundled file) and finds scenario name in it,
// printing the one-line error of a failure and returning false.
func loadScenario(cmd, file, name string, stderr io.Writer) (*scenario.Scenario, bool) {
	f, ok := loadCmd(cmd, file, []string{name}, stderr)
	if !ok {
		return nil, false
	}
	s, err := f.Find(name)
	if err != nil {
		failf(stderr, cmd, "%s", fileError(err))
		return nil, false
	}
	return s, true
}

// newFlags makes a flag set that prints its usage to stdout on -h and
// reports errors (not panics, not os.Exit) to the caller.
func newFlags(name, synopsis string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.String("lang", "", "the `LANGUAGE` of messages: en or zh (default: $LOCKSTEP_LANG, else the locale)")
	fs.Usage = func() {
		fmt.Fprintf(stdout, "%s\n\n%s\n", i18n.T(synopsis), i18n.T("Flags:"))
		fs.VisitAll(func(f *flag.Flag) {
			if i18n.Has(f.Usage) {
				f.Usage = i18n.T(f.Usage)
			}
		})
		fs.SetOutput(stdout)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses and maps -h to exit 0 and bad flags to exit 2.
// A bad flag gets the flag package's one-line message and a pointer to the
// help, not the whole usage text.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	usage := fs.Usage
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	recs, restore := recordValues(fs)
	err := fs.Parse(args)
	restore()
	if errors.Is(err, flag.ErrHelp) {
		usage()
		return exitOK, false
	}
	if err != nil {
		return failf(stderr, fs.Name(), "%v (see 'lockstep help %s')", flagErrorIn(recs, err, i18n.Current()), fs.Name()), false
	}
	if fs.NArg() > 0 {
		return failf(stderr, fs.Name(), "unexpected argument %q (scenarios are chosen with -s NAME)", fs.Arg(0)), false
	}
	return 0, true
}

// loadFile reads FILE, or the bundled scenarios when FILE is "".
func loadFile(path string) (*scenario.File, error) { return loadFileFor(path, nil) }

// loadFileFor is loadFile for a command that needs only the scenarios
// named (all when none is): of the bundled file, whose tests prove it
// loads, those are built from the table made from it (scenario/prebuilt).
func loadFileFor(path string, names []string) (*scenario.File, error) {
	if path == "" {
		return prebuilt.Load(bundledName, bundled, names)
	}
	return scenario.LoadFile(path)
}

// pick returns the named scenarios in the order given, or all of them.
func pick(f *scenario.File, want []string) ([]*scenario.Scenario, error) {
	if len(want) == 0 {
		return f.Scenarios, nil
	}
	out := make([]*scenario.Scenario, 0, len(want))
	for _, n := range want {
		s, err := f.Find(n)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

const listSynopsis = "Usage: lockstep list [-f FILE]\n\nLists the scenarios of FILE (default: the bundled scenarios)."

func cmdList(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", listSynopsis, stdout)
	file := fileFlag(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if err := checkNonEmpty(fs, "f"); err != nil {
		return failf(stderr, "list", "%v", err)
	}
	f, ok := loadCmd("list", *file, nil, stderr)
	if !ok {
		return exitBadInput
	}
	writeList(stdout, f.Scenarios)
	return exitOK
}

// writeList prints one line per scenario, name, strategy and title in
// columns as wide as their longest entry (measured in runes, after
// escaping, which is what the terminal shows).
func writeList(w io.Writer, ss []*scenario.Scenario) {
	rows := make([][3]string, len(ss))
	var wName, wStrat int
	for i, s := range ss {
		rows[i] = [3]string{termtext.Escape(s.Name), termtext.Escape(scenario.StrategyLabel(s.Lock.Strategy, s.Lock.Client)), termtext.Escape(s.TitleIn(string(i18n.Current())))}
		wName = max(wName, utf8.RuneCountInString(rows[i][0]))
		wStrat = max(wStrat, utf8.RuneCountInString(rows[i][1]))
	}
	for _, r := range rows {
		line := pad(r[0], wName) + "  " + pad(r[1], wStrat) + "  " + r[2]
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}

func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-utf8.RuneCountInString(s)))
}
