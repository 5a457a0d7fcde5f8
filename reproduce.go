package main

import (
	"flag"
	"slices"
	"strings"

	"github.com/lockstep-sim/lockstep/internal/shquote"
)

// reproduce is the command line that replays one outcome of this
// invocation: "lockstep CMD", the -f the user gave, then fixed (the one
// scenario and its seed, say), then every other flag the user set except
// those in drop (outputs: --json, --trace, ...), each shell-quoted. Run
// from the same directory it gives the same outcome.
func reproduce(cmd string, fs *flag.FlagSet, fixed []string, drop ...string) string {
	args := []string{"lockstep", cmd}
	if f := fs.Lookup("f"); f != nil && set(fs, "f") {
		args = append(args, "-f", f.Value.String())
	}
	args = append(args, fixed...)
	skip := append([]string{"f"}, drop...)
	for i := 0; i < len(fixed); i += 2 { // fixed is flag, value pairs
		skip = append(skip, strings.TrimLeft(fixed[i], "-"))
	}
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(skip, f.Name) {
			return
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			args = append(args, "--"+f.Name+"="+f.Value.String())
			return
		}
		args = append(args, "--"+f.Name, f.Value.String())
	})
	return shquote.Join(args)
}
