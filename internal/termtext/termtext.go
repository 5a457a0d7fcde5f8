// Package termtext makes user-supplied text safe to print on a terminal: a
// scenario's title, story or names may hold control characters (an escape
// sequence can clear the screen or retitle the terminal), which are shown
// escaped instead of being sent raw.
package termtext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s with every control character (C0 but for tab and newline
// when keepLines, DEL, C1), and every invalid UTF-8 byte, written as a Go
// escape (\x1b, \u0085). Text without them is returned as is, unallocated.
func Escape(s string) string { return escape(s, false) }

// EscapeKeepLines is Escape, but newlines and tabs pass through: for
// multi-line text such as a story.
func EscapeKeepLines(s string) string { return escape(s, true) }

func escape(s string, keepLines bool) string {
	if clean(s, keepLines) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case bad(r, keepLines):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func clean(s string, keepLines bool) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || bad(r, keepLines) {
			return false
		}
		i += n
	}
	return true
}

func bad(r rune, keepLines bool) bool {
	if keepLines && (r == '\n' || r == '\t') {
		return false
	}
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

// HasControl reports whether s holds a control character or invalid UTF-8:
// what the loader refuses in names and keys.
func HasControl(s string) bool { return !clean(s, false) }
