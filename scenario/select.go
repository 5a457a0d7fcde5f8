package scenario

import (
	"bytes"
	"slices"

	"github.com/lockstep-sim/lockstep/scenario/yamlfile"
)

// LoadSelected is Load for a run of a few scenarios of a large, known-good
// file, such as the bundled one: the scenarios not named are blanked out of
// the text before it is parsed (their lines kept, empty, so positions stay
// true), which spares parsing and checking the rest. Parsing the bundled
// file is ~3 ms, a tenth of `lockstep run -s NAME` for a short scenario.
//
// It reads the layout Load's own output and the bundled file share: a
// top-level `scenarios:` list whose items start with a `  - name: NAME`
// line. When the file is not laid out so, or a name is not found (so that
// the error lists every name), it is plain Load. Cross-scenario checks
// (duplicate names) see only the scenarios kept: use it only where the
// whole file is known to load.
func LoadSelected(path string, data []byte, names []string) (*File, error) {
	if len(names) == 0 {
		return Load(path, data)
	}
	if slices.Contains(names, "") {
		// An empty name (-s "") must not quietly mean "every scenario".
		return nil, yamlfile.NoPos(path, nil, "a scenario name is empty: name a scenario of the file (lockstep list shows them)")
	}
	out, ok := selectScenarios(data, names)
	if !ok {
		return Load(path, data)
	}
	return Load(path, out)
}

// selectScenarios returns data with the lines of the scenarios not named
// emptied, or false when a name is not found. It copies runs of kept lines
// whole and writes a run of blanked lines only when a kept line follows
// it: the lines after the last kept one are dropped, since no position
// lies past them, and for a scenario early in the bundled file that is
// most of the ~6,000 lines yaml.v3 would otherwise scan one by one.
func selectScenarios(data []byte, names []string) ([]byte, bool) {
	const item = "  - " + keyName + ": "
	inList, keep := false, true
	seen := make([]bool, len(names))
	var out []byte      // grows with what is kept (a few KiB), not the whole file
	kept, blank := 0, 0 // data[kept:] starts the run of kept lines; blank lines wait to be written
	for at := 0; at < len(data); {
		end := len(data)
		if i := bytes.IndexByte(data[at:], '\n'); i >= 0 {
			end = at + i + 1
		}
		l, was := data[at:end], keep
		switch {
		case bytes.HasPrefix(l, []byte(keyScenarios+":")):
			inList, keep = true, true
		case len(l) > 0 && l[0] != ' ' && l[0] != '\n' && l[0] != '#':
			inList, keep = false, true // another top-level key
		case inList && bytes.HasPrefix(l, []byte(item)):
			keep = markNamed(bytes.TrimSpace(l[len(item):]), names, seen)
		}
		switch {
		case keep && !was:
			for ; blank > 0; blank-- {
				out = append(out, '\n')
			}
			kept = at
		case !keep && was:
			out = append(out, data[kept:at]...)
		}
		if !keep {
			blank++
		}
		at = end
	}
	if keep {
		out = append(out, data[kept:]...)
	}
	return out, !slices.Contains(seen, false)
}

// markNamed reports whether name is one of names, marking each it equals.
func markNamed(name []byte, names []string, seen []bool) bool {
	found := false
	for i, n := range names {
		if string(name) == n {
			seen[i], found = true, true
		}
	}
	return found
}
