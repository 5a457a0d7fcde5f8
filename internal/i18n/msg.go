package i18n

import "fmt"

// Msg is a sentence kept unrendered: its English format (the catalogue's
// key) and its arguments, so that one value can be shown in either
// language after it was made. An argument that is itself a Msg is a
// nested phrase ("a list", "the value \"x\"", a validation finding inside
// "FILE:LINE:COL: ...") and renders in the same language as the sentence
// around it; every other argument (field names, quoted values, numbers)
// is filled in as it is.
type Msg struct {
	Format string
	Args   []any
}

// M makes a Msg; the format is the English text, a key of the catalogue.
func M(format string, args ...any) Msg { return Msg{Format: format, Args: args} }

// passThrough is the format of a Msg that only wraps another: it is the
// same in every language and needs no entry.
const passThrough = "%s"

// String renders m in English exactly as fmt.Sprintf(m.Format, m.Args...)
// would, so a Msg can replace a string built that way byte for byte.
func (m Msg) String() string { return m.In(EN) }

// In renders m in l: the catalogue's text for m.Format (English when l is
// English, or when the catalogue lacks it, which Missing then reports),
// filled by fmt.Sprintf with the arguments, nested Msgs rendered in l.
func (m Msg) In(l Lang) string {
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		if n, ok := a.(Msg); ok {
			a = n.In(l)
		}
		args[i] = a
	}
	f := m.Format
	if l != EN && f != passThrough {
		var ok bool
		if f, ok = lookup(l, m.Format, args); !ok {
			missingMu.Lock()
			missing[m.Format] = true
			missingMu.Unlock()
		}
	}
	return fmt.Sprintf(f, args...)
}
