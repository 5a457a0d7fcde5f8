package i18n

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

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
		f = tighten(f, m.Args, args)
	}
	return fmt.Sprintf(f, args...)
}

// tighten drops a space of the format f that stands between Chinese text
// and a nested phrase rendered in Chinese ("不是 %s 中的" with "顶层"
// gives "不是顶层中的"): the zh texts put spaces around their verbs for
// the Latin field names and values that fill most of them, and Chinese
// takes no space between its own words. Only the format's spaces change,
// never an argument's.
func tighten(f string, raw, args []any) string {
	locs := verb().FindAllStringIndex(f, -1)
	var b strings.Builder
	last, argi := 0, 0
	for _, loc := range locs {
		if f[loc[1]-1] == '%' { // "%%" takes no argument
			continue
		}
		i := argi
		argi++
		if i >= len(args) {
			break
		}
		if _, nested := raw[i].(Msg); !nested {
			continue
		}
		s, _ := args[i].(string)
		first, _ := utf8.DecodeRuneInString(s)
		endRune, _ := utf8.DecodeLastRuneInString(s)
		start, end := loc[0], loc[1]
		if before, _ := utf8.DecodeLastRuneInString(f[last:max(start-1, last)]); start-1 >= last && f[start-1] == ' ' && cjk(before) && cjk(first) {
			b.WriteString(f[last : start-1])
		} else {
			b.WriteString(f[last:start])
		}
		b.WriteString(f[start:end])
		last = end
		if after, _ := utf8.DecodeRuneInString(f[min(end+1, len(f)):]); end < len(f) && f[end] == ' ' && cjk(endRune) && cjk(after) {
			last = end + 1
		}
	}
	b.WriteString(f[last:])
	return b.String()
}

// cjk reports whether r is a Chinese character or CJK / fullwidth
// punctuation, which takes no space beside Chinese text.
func cjk(r rune) bool {
	return unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef
}
