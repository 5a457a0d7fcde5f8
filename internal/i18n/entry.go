package i18n

// Entry is one message of the catalogue: its key, which is the English
// text (a fmt format string), and its Simplified Chinese text, which takes
// the same verbs in the same order.
type Entry struct {
	Key, ZH string
}

// entries lists every table of the catalogue; each screen or command
// keeps its own table in its own zh_*.go file.
func entries() []Entry {
	var out []Entry
	for _, t := range [][]Entry{cliEntries, tuiEntries} {
		out = append(out, t...)
	}
	return out
}

// Entries returns a copy of the catalogue, for tests and for tools.
func Entries() []Entry { return append([]Entry(nil), entries()...) }
