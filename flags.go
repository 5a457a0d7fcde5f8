package main

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/scenario"
)

// MaxNames bounds how many scenarios one -s list may name: more than any
// file holds (the loader bounds a file's size), few enough to print.
const MaxNames = 1000

// names is a repeatable -s flag. An empty name ("-s ”", "-s a,,b") is an
// error, not a silent "run everything".
type names []string

func (n *names) String() string { return strings.Join(*n, ",") }
func (n *names) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			return badValue("an empty name in the list")
		}
		if len(*n) >= MaxNames {
			return badValue("at most %d names", MaxNames)
		}
		*n = append(*n, s)
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
		return badValue("must be a whole number from 0 to %d", uint64(math.MaxUint64))
	}
	f.v = &v
	return nil
}

// intFlag is a whole-number flag with an allowed range, so that a typo
// (--runs 1e10) is a one-line message, not an out-of-memory crash. It takes
// plain digits and, for large counts, exact powers like 1e6.
type intFlag struct {
	v        int64
	min, max int64
}

func (f *intFlag) String() string { return strconv.FormatInt(f.v, 10) }
func (f *intFlag) Set(s string) error {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		x, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || x != math.Trunc(x) || math.Abs(x) > 1e18 {
			return f.rangeErr()
		}
		v = int64(x)
	}
	if v < f.min || v > f.max {
		return f.rangeErr()
	}
	f.v = v
	return nil
}

func (f *intFlag) rangeErr() error {
	return badValue("must be a whole number from %d to %d", f.min, f.max)
}

// boundedInt defines an intFlag on fs; the usage states the range.
func boundedInt(fs *flag.FlagSet, name string, def, lo, hi int64, usage string) *intFlag {
	f := &intFlag{v: def, min: lo, max: hi}
	fs.Var(f, name, i18n.T("%s (%d to %d)", i18n.T(usage), lo, hi))
	return f
}

// budgetFlag is --budget, the kernel events one run may take, shared by
// run, compare and explore.
func budgetFlag(fs *flag.FlagSet) *intFlag {
	return boundedInt(fs, "budget", scenario.DefaultEventBudget, 1, scenario.MaxEventBudget,
		"`N` kernel events per run before it is cut short as BUDGET EXHAUSTED")
}

// set reports whether flag name was given on the command line.
func set(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// checkNonEmpty refuses a string flag given as "" (-f ""), which would
// otherwise mean its default and silently run the bundled file.
func checkNonEmpty(fs *flag.FlagSet, flags ...string) error {
	for _, name := range flags {
		if f := fs.Lookup(name); f != nil && set(fs, name) && f.Value.String() == "" {
			return fmt.Errorf("-%s needs a value, not an empty string", name)
		}
	}
	return nil
}

// fileFlag is every command's -f: the scenario file, the bundled one when
// absent (an explicit -f "" is refused by checkNonEmpty).
func fileFlag(fs *flag.FlagSet) *string {
	return fs.String("f", "", "scenario `FILE` (default: the bundled scenarios.yaml)")
}
