package i18n

// Entry is one message of the catalogue: its key, which is the English
// text (a fmt format string), and its Simplified Chinese text, which takes
// the same verbs in the same order.
type Entry struct {
	Key, ZH string
	// One, when set, is the English singular (the key is the plural):
	// the catalogue chooses between them by the first argument with
	// CLDR's plural rules. Chinese has one form, so ZH covers every count.
	One string
	// Ctx, when set, tells apart two uses of one English text ("up" the
	// node status, "up" the cursor key), as gettext's msgctxt does; render
	// such an entry with TC.
	Ctx string
}

// id is the entry's key in the catalogue: Ctx and Key joined by EOT, the
// separator gettext uses for a context.
func (e Entry) id() string {
	if e.Ctx == "" {
		return e.Key
	}
	return e.Ctx + "\x04" + e.Key
}

// entries lists every table of the catalogue; each screen or command
// keeps its own table in its own zh_*.go file.
func entries() []Entry {
	var out []Entry
	for _, t := range tables() {
		out = append(out, t...)
	}
	return out
}

// tables are the catalogue's tables, read in place.
func tables() [][]Entry {
	return append([][]Entry{cliEntries, tuiEntries, reportEntries, faultEntries, restEntries}, registered...)
}

// Entries returns a copy of the catalogue, for tests and for tools.
func Entries() []Entry { return append([]Entry(nil), entries()...) }

// registered holds the tables other packages add with Register: a
// command's help text is keyed by its own constant, which lives with the
// command, so the key is never copied. The tables are kept as given, not
// copied into one, at every process's start.
var registered [][]Entry

// Register adds entries to the catalogue. It is for package init
// functions: it must run before the first message is rendered.
func Register(e ...Entry) {
	if built.Load() {
		panic("i18n.Register after the catalogue was built")
	}
	registered = append(registered, e)
}
