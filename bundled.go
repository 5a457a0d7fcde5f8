package main

import (
	"hash/crc32"
	"slices"

	"github.com/lockstep-sim/lockstep/scenario"
)

// bundledEntry is one scenario of the bundled file as Go: make builds a
// fresh copy each time, so that no two runs share one.
type bundledEntry struct {
	name string
	make func() *scenario.Scenario
}

// loadBundled is scenario.LoadSelected of the bundled file for the
// scenarios named (Load of the whole file when none is), without parsing:
// bundled_table.go holds what Load makes of each scenario, generated from
// these very bytes (TestBundledTable holds it to Load, field for field).
// Reading and checking one scenario of the file (yaml.v3 and the format's
// walk) was ~2.6 M instructions, 2.6 % of `lockstep run -s
// counter-30x200-loopback`; the whole file, for the TUI or a plain
// `lockstep run`, ~100 M.
//
// The table answers only for the file it was made from (its size and its
// CRC-32: 0.18 M instructions) and only when it holds every name; anything
// else, an empty name included, is LoadSelected's, with its errors. The
// scenarios come in file order, each once, as LoadSelected returns them.
func loadBundled(names []string) (*scenario.File, error) {
	if !bundledTableFits(bundled, names) {
		return scenario.LoadSelected(bundledName, bundled, names)
	}
	f := &scenario.File{Path: bundledName, Version: 1}
	for _, e := range bundledTable {
		if len(names) == 0 || slices.Contains(names, e.name) {
			f.Scenarios = append(f.Scenarios, e.make())
		}
	}
	return f, nil
}

// bundledTableFits reports whether the table answers for names (none: the
// whole file) in data: data is the file the table was made from and every
// name is in it.
func bundledTableFits(data []byte, names []string) bool {
	if len(data) != bundledSize || crc32.ChecksumIEEE(data) != bundledCRC {
		return false
	}
	for _, n := range names {
		if !slices.ContainsFunc(bundledTable, func(e bundledEntry) bool { return e.name == n }) {
			return false
		}
	}
	return true
}
