// Package prebuilt is the bundled scenarios.yaml as Go: what
// scenario.Load makes of each of its scenarios, written out by a generator
// (scenario's TestPrebuiltTable) into table.go, so that a process that runs
// a bundled scenario, lists them or opens the TUI builds them instead of
// parsing the file. Parsing and checking one scenario of it (yaml.v3 and
// the format's walk) was ~2.6 M instructions, 2.6 % of `lockstep run -s
// counter-30x200-loopback`; the whole file, for the TUI, `lockstep list` or
// a plain `lockstep run`, ~100 M.
package prebuilt

import (
	"hash/crc32"
	"slices"

	"github.com/lockstep-sim/lockstep/scenario"
)

// entry is one scenario of the bundled file as Go: make builds a fresh
// copy each time, so that no two runs share one.
type entry struct {
	name string
	make func() *scenario.Scenario
}

// Load is scenario.LoadSelected(path, data, names) for the bundled file
// (scenario.Load of it when no name is given), built from the table
// instead of parsed. The table answers only for the file it was made from
// (its size and its CRC-32: 0.18 M instructions) and only when it holds
// every name; anything else, an empty name included, is LoadSelected's,
// with its errors. The scenarios come in file order, each once, as
// LoadSelected returns them.
func Load(path string, data []byte, names []string) (*scenario.File, error) {
	if !Fits(data, names) {
		return scenario.LoadSelected(path, data, names)
	}
	f := &scenario.File{Path: path, Version: fileVersion}
	for _, e := range table {
		if len(names) == 0 || slices.Contains(names, e.name) {
			f.Scenarios = append(f.Scenarios, e.make())
		}
	}
	return f, nil
}

// Fits reports whether the table answers for names (none: the whole file)
// in data: data is the file the table was made from and every name is in
// it.
func Fits(data []byte, names []string) bool {
	if len(data) != fileSize || crc32.ChecksumIEEE(data) != fileCRC {
		return false
	}
	for _, n := range names {
		if !slices.ContainsFunc(table, func(e entry) bool { return e.name == n }) {
			return false
		}
	}
	return true
}
