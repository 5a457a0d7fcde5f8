package scenario

import (
	"bytes"
	"slices"

	"github.com/lockstep-sim/lockstep/scenario/yamlfile"
	"gopkg.in/yaml.v3"
)

// LoadSelected is Load for a run of a few scenarios of a large, known-good
// file, such as the bundled one: only the lines of the scenarios named (and
// the file's other top-level keys, up to the last of those scenarios) are
// parsed, which spares parsing and checking the rest. Parsing the bundled file is ~3 ms, a tenth of
// `lockstep run -s NAME` for a short scenario.
//
// It reads the layout Load's own output and the bundled file share: a
// top-level `scenarios:` list whose items start with a `  - name: NAME`
// line. When the file is not laid out so, a name is not found (so that
// the error lists every name), or the kept text does not load, it is
// plain Load, whose errors point into the whole file. Cross-scenario
// checks (duplicate names) see only the scenarios kept: use it only where
// the whole file is known to load.
func LoadSelected(path string, data []byte, names []string) (*File, error) {
	if len(names) == 0 {
		return Load(path, data)
	}
	if slices.Contains(names, "") {
		// An empty name (-s "") must not quietly mean "every scenario".
		return nil, yamlfile.NoPos(path, nil, "a scenario name is empty: name a scenario of the file (lockstep list shows them)")
	}
	kept, ok := selectScenarios(data, names)
	if !ok || len(data) > MaxFileSize || yamlfile.CheckText(path, kept.text) != nil {
		return Load(path, data)
	}
	root, lerr := parseYAML(path, kept.text)
	if lerr != nil {
		return Load(path, data)
	}
	kept.restoreLines(root)
	f, err := walk(path, root, (*parser).file)
	if err != nil {
		return Load(path, data)
	}
	return f, nil
}

// keptText is the lines of a file that LoadSelected parses, and where
// each run of them stood in the file.
type keptText struct {
	text []byte
	runs []keptRun
}

// keptRun is a run of consecutive lines of the file: from its first line
// in the kept text on, line n of the kept text is line n+shift of the file.
type keptRun struct{ from, shift int }

// selectScenarios returns the lines of data outside every scenario not
// named, or false when a name is not found. The lines left out are not
// blanked but dropped, and the positions restored after the parse
// (restoreLines): yaml.v3 would scan each empty line, thousands of them
// in the bundled file. The comment lines outside the items' bodies
// (commentLine) are dropped too: yaml.v3 scans a comment and attaches it
// to a node, and nothing reads comments; the bundled file's header and
// section banners were a quarter of the text parsed for one scenario.
//
// Reading stops at the first item after every name was seen: in a file
// that loads, no name comes twice and the rest is other scenarios (the
// bundled file's 5,900 lines cost ~100 instructions each to sort, and a
// run names one scenario). A top-level key written after the list is
// dropped with them; the kept text then lacks it, and LoadSelected falls
// back to Load, which reads it.
func selectScenarios(data []byte, names []string) (keptText, bool) {
	const item = "  - " + keyName + ": "
	var k keptText
	inList, keep, was := false, true, true // was: the line before was kept
	seen := make([]bool, len(names))
	found := 0                        // how many of seen are true
	start, line, keptLines := 0, 1, 0 // start: the first byte of the run being kept
	k.runs = append(k.runs, keptRun{from: 1})
	at := 0
lines:
	for ; at < len(data); line++ {
		end := len(data)
		if i := bytes.IndexByte(data[at:], '\n'); i >= 0 {
			end = at + i + 1
		}
		l := data[at:end]
		switch {
		case len(l) >= 3 && l[0] == ' ' && l[1] == ' ' && l[2] == ' ':
			// indented inside an item: most lines, and none that matters
		case bytes.HasPrefix(l, []byte(keyScenarios+":")):
			inList, keep = true, true
		case len(l) > 0 && l[0] != ' ' && l[0] != '\n' && l[0] != '#':
			inList, keep = false, true // another top-level key
		case inList && bytes.HasPrefix(l, []byte(item)):
			if found == len(names) {
				break lines // every name seen: the rest is not read
			}
			keep = markNamed(bytes.TrimSpace(l[len(item):]), names, seen, &found)
		}
		kept := keep && !commentLine(l)
		switch {
		case kept && !was:
			start = at
			k.runs = append(k.runs, keptRun{from: keptLines + 1, shift: line - keptLines - 1})
		case !kept && was:
			k.text = append(k.text, data[start:at]...)
		}
		if kept {
			keptLines++
		}
		at, was = end, kept
	}
	if was {
		k.text = append(k.text, data[start:at]...)
	}
	return k, found == len(names)
}

// commentLine is a comment indented by at most two spaces: in this
// layout, above an item's keys (four spaces) and so never a line of a
// block scalar's text, which is indented deeper still.
func commentLine(l []byte) bool {
	for i := 0; i < len(l) && i < 3; i++ {
		if l[i] != ' ' {
			return l[i] == '#'
		}
	}
	return false
}

// markNamed reports whether name is one of names, marking each it equals
// in seen and counting in found each it marks for the first time.
func markNamed(name []byte, names []string, seen []bool, found *int) bool {
	named := false
	for i, n := range names {
		if string(name) == n {
			if !seen[i] {
				*found++
			}
			seen[i], named = true, true
		}
	}
	return named
}

// restoreLines gives every node of the tree under n its line in the file.
// An alias is a node of its own in the tree, so each node is seen once.
func (k keptText) restoreLines(n *yaml.Node) {
	if n.Line > 0 {
		i := len(k.runs) - 1
		for i > 0 && k.runs[i].from > n.Line {
			i--
		}
		n.Line += k.runs[i].shift
	}
	for _, c := range n.Content {
		k.restoreLines(c)
	}
}
