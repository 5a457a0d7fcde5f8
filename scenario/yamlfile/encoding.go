package yamlfile

import (
	"bytes"
	"unicode/utf8"
)

// CheckText refuses what is not UTF-8 YAML text before the YAML parser sees
// it, at the exact LINE:COL: yaml.v3 reports an invalid byte or a control
// character at 1:1 whatever its place, and silently decodes UTF-16. A UTF-8
// byte-order mark is allowed (editors write one).
func CheckText(path string, data []byte) *Error {
	switch {
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}), bytes.HasPrefix(data, []byte{0xFF, 0xFE}),
		len(data) >= 2 && (data[0] == 0) != (data[1] == 0):
		// A byte-order mark, or YAML's own test for UTF-16 without one: an
		// ASCII character next to a zero byte.
		return NewError(path, Pos{1, 1}, "the file is UTF-16 (or UTF-32) text; lockstep reads UTF-8 only: save it as UTF-8")
	}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	line, col := 1, 1
	for i := 0; i < len(data); {
		if b := data[i]; b >= 0x20 && b < 0x7F || b == '\t' {
			// Printable ASCII, most of any file: no rune to decode.
			i++
			col++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return NewError(path, Pos{line, col}, "invalid UTF-8 (the byte 0x%02x): the file must be UTF-8 text", data[i])
		case r == '\n' || r == '\u0085' || r == '\u2028' || r == '\u2029' ||
			r == '\r' && (i+1 == len(data) || data[i+1] != '\n'):
			// The line breaks YAML counts: LF, CRLF (at its LF), a lone
			// CR, NEL, LS and PS.
			line, col = line+1, 0
		case !yamlPrintable(r):
			return NewError(path, Pos{line, col}, "a raw control character (%s) is not allowed in YAML text; the file may not be a text file", clip(string(r)))
		}
		i += n
		col++
	}
	return nil
}

// yamlPrintable is YAML 1.2's c-printable: what a YAML stream may hold.
func yamlPrintable(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r' || r == '\u0085':
		return true
	case r < 0x20 || r == 0x7F:
		return false
	case r >= 0x80 && r < 0xA0:
		return false
	case r == 0xFFFE || r == 0xFFFF:
		return false
	}
	return true
}

// tabIndent finds the first tab in the indentation of lines from..to
// (1-based) and returns its position.
func tabIndent(lines [][]byte, from, to int) (Pos, bool) {
	for l := max(from, 1); l <= to && l <= len(lines); l++ {
		text := lines[l-1]
		indent := text[:len(text)-len(bytes.TrimLeft(text, " \t"))]
		if c := bytes.IndexByte(indent, '\t'); c >= 0 {
			return Pos{l, c + 1}, true
		}
	}
	return Pos{}, false
}

// tabMessage is the message of a tab used to indent.
const tabMessage = "tabs are not allowed for indentation; use spaces"
