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
	"strconv"
	"strings"

	"github.com/lockstep-sim/lockstep/scenario"
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
  lockstep list [-f FILE]          list the scenarios of a file
  lockstep help [COMMAND]          show help

Run 'lockstep help run' for the flags of a command.
Exit codes: 0 every expectation held, 1 an expectation failed, 2 bad input.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code, which keeps the
// command line testable.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return cmdTUI(nil, stdout, stderr)
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "list":
		return cmdList(args[1:], stdout, stderr)
	case "compare":
		return cmdCompare(args[1:], stdout, stderr)
	case "explore":
		return cmdExplore(args[1:], stdout, stderr)
	case "tui":
		return cmdTUI(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			return run([]string{args[1], "--help"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "lockstep: unknown command %q\n\n%s", args[0], usage)
	return exitBadInput
}

// names is a repeatable -s flag.
type names []string

func (n *names) String() string { return strings.Join(*n, ",") }
func (n *names) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*n = append(*n, s)
		}
	}
	return nil
}

// seedFlag is an optional --seed: unset keeps each scenario's own seed.
type seedFlag struct{ v *uint64 }

func (f *seedFlag) String() string {
	if f.v == nil {
		return ""
	}
	return strconv.FormatUint(*f.v, 10)
}
func (f *seedFlag) Set(s string) error {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return errors.New("must be a whole number >= 0")
	}
	f.v = &v
	return nil
}

// loadScenario reads FILE (or the bundled file) and finds scenario name in it,
// printing the one-line error of a failure and returning false.
func loadScenario(cmd, file, name string, stderr io.Writer) (*scenario.Scenario, bool) {
	f, err := loadFileFor(file, []string{name})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, false
	}
	s, err := f.Find(name)
	if err != nil {
		fmt.Fprintf(stderr, "lockstep %s: %v\n", cmd, err)
		return nil, false
	}
	return s, true
}

// newFlags makes a flag set that prints its usage to stdout on -h and
// reports errors (not panics, not os.Exit) to the caller.
func newFlags(name, synopsis string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() {
		fmt.Fprintf(stdout, "%s\n\nFlags:\n", synopsis)
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
	fs.SetOutput(stderr)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		usage()
		return exitOK, false
	}
	if err != nil {
		fmt.Fprintf(stderr, "(see 'lockstep help %s')\n", fs.Name())
		return exitBadInput, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "lockstep %s: unexpected argument %q (scenarios are chosen with -s NAME)\n", fs.Name(), fs.Arg(0))
		return exitBadInput, false
	}
	return 0, true
}

// loadFile reads FILE, or the bundled scenarios when FILE is "".
func loadFile(path string) (*scenario.File, error) { return loadFileFor(path, nil) }

// loadFileFor is loadFile for a command that needs only the scenarios
// named (all when none is): of the bundled file, whose tests prove it
// loads, only those are parsed.
func loadFileFor(path string, names []string) (*scenario.File, error) {
	if path == "" {
		return scenario.LoadSelected(bundledName, bundled, names)
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

func cmdList(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", "Usage: lockstep list [-f FILE]\n\nLists the scenarios of FILE (default: the bundled scenarios).", stdout)
	file := fs.String("f", "", "scenario `FILE` (default: the bundled scenarios.yaml)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	f, err := loadFile(*file)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	for _, s := range f.Scenarios {
		fmt.Fprintf(stdout, "%-32s %-13s %s\n", s.Name, s.Lock.Strategy, s.Title)
	}
	return exitOK
}
