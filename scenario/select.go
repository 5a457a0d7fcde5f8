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
	const item = "  - " + keyName + ": "
	inList, keep := false, true
	seen := map[string]bool{}
	// out grows with what is kept (a few KiB): sized to the whole file, it
	// was a quarter of a MiB zeroed for every `run -s NAME` process.
	var out []byte
	for rest := data; len(rest) > 0; {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l = rest[:i+1]
		}
		rest = rest[len(l):]
		switch {
		case bytes.HasPrefix(l, []byte(keyScenarios+":")):
			inList, keep = true, true
		case len(l) > 0 && l[0] != ' ' && l[0] != '\n' && l[0] != '#':
			inList, keep = false, true // another top-level key
		case inList && bytes.HasPrefix(l, []byte(item)):
			name := string(bytes.TrimSpace(l[len(item):]))
			if keep = slices.Contains(names, name); keep {
				seen[name] = true
			}
		}
		if keep {
			out = append(out, l...)
		} else {
			out = append(out, '\n')
		}
	}
	for _, n := range names {
		if !seen[n] {
			return Load(path, data)
		}
	}
	return Load(path, out)
}
