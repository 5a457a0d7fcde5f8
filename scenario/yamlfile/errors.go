// Package yamlfile reads YAML strictly and with positions, for a file
// format whose every error must be "FILE:LINE:COL: message": the bytes'
// checks before yaml.v3 sees them (CheckText), yaml.v3's own errors at
// their place (FromYAML), a Parser that walks mappings (known keys only,
// each once, merge keys, a budget against alias bombs), lists and scalars
// keeping every position, and the error type (Error). It knows nothing of
// the format built on it: the format gives it Limits and, for keys that
// are not fields, Parser.Unknown.
package yamlfile

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/termtext"
)

// Pos is a place in a file, for error messages (FILE:LINE:COL).
type Pos struct {
	Line, Col int
}

// Error is a problem with a file. Its text is "FILE:LINE:COL: message" so
// editors and terminals can jump to the spot, or "FILE: message" when the
// file could not be read at all (Pos is zero).
type Error struct {
	Path string // the path of the file, as given
	Pos  Pos    // 1-based; Col is 1 when only the line is known; zero: no position
	Msg  string // the message in English
	Err  error  // the underlying error of a file that could not be read, for errors.Is
	// msg is Msg unrendered (its English format and arguments), for
	// MessageIn; zero when Msg was set directly.
	msg i18n.Msg
}

// Error returns "FILE:LINE:COL: message" (or "FILE: message"). The path is
// user input too, so control characters in it are shown escaped.
func (e *Error) Error() string { return e.ErrorIn(i18n.EN) }

// ErrorIn is Error with the message in language l (see MessageIn).
func (e *Error) ErrorIn(l i18n.Lang) string {
	path := termtext.Escape(e.Path)
	if e.Path == "" {
		path = `""`
	}
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", path, e.MessageIn(l))
	}
	return fmt.Sprintf("%s:%d:%d: %s", path, e.Pos.Line, e.Pos.Col, e.MessageIn(l))
}

// MessageIn renders the message in l through the catalogue: in English it
// is Msg; field names, YAML keys, values and units stay as written in
// every language. A LoadError made without a format (Msg set directly)
// has only its English.
func (e *Error) MessageIn(l i18n.Lang) string {
	if l == i18n.EN || e.msg.Format == "" {
		return e.Msg
	}
	return termtext.Escape(e.msg.In(l))
}

// Unwrap gives errors.Is the cause of a read failure (fs.ErrNotExist, ...).
func (e *Error) Unwrap() error { return e.Err }

// Echo quotes a value the user wrote for an error message: at most maxEcho
// characters (a 3 MiB value is not printed whole), with control characters
// and invalid UTF-8 escaped as Go escapes, so the message stays one line.
func Echo(s string) string {
	s, cut := cutEcho(s)
	q := strconv.Quote(s)
	if cut {
		q = q[:len(q)-1] + `…"`
	}
	return q
}

// clip is Echo without the quotes, for values shown bare ("30 has no unit").
func clip(s string) string {
	s, cut := cutEcho(s)
	s = termtext.Escape(s)
	if cut {
		s += "…"
	}
	return s
}

// maxEcho is how many characters of a value an error message quotes;
// the rest is cut and marked with "…".
const maxEcho = 40

// maxList is how many bytes of names a "known: ..." list shows.
const maxList = 400

// KnownList joins names for a "known: ..." list, cut after maxList bytes
// with a count of the rest, so the message stays a line a terminal shows.
// The count is a phrase of the message's language.
func KnownList(names []string) i18n.Msg {
	var b strings.Builder
	for i, n := range names {
		if b.Len()+len(n) > maxList {
			return i18n.M("%s… and %d more", b.String(), len(names)-i)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
	}
	return i18n.M("%s", b.String())
}

// cutEcho returns the first maxEcho characters of s (an invalid byte counts
// as one) and whether anything was cut.
func cutEcho(s string) (string, bool) {
	for i, n := 0, 0; i < len(s); n++ {
		if n == maxEcho {
			return s[:i], true
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s, false
}

// NewError builds a LoadError, clamping the position to at least 1:1 so the
// FILE:LINE:COL form always holds (yaml.v3 reports some problems at line 0).
func NewError(path string, p Pos, format string, args ...any) *Error {
	if p.Line < 1 {
		p.Line = 1
	}
	if p.Col < 1 {
		p.Col = 1
	}
	// Messages quote values through Echo; Escape is the net for any that
	// does not, so no message can carry a control character to a terminal.
	m := i18n.M(format, args...)
	return &Error{Path: path, Pos: p, Msg: termtext.Escape(m.String()), msg: m}
}

// Before reports whether p comes earlier in the file than q.
func (p Pos) Before(q Pos) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

var (
	// Compiled on the first YAML error, not at every process's start.
	yamlLineRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^line (\d+): `) })
	yamlAnchorRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`unknown anchor '([^']*)' referenced`) })
)

// FromYAML turns a yaml.v3 parse error ("yaml: line 3: found ...") into a
// LoadError. yaml.v3 only gives a line, and omits it for problems on line 1
// and for unknown anchors, so the column is recovered where the data allows.
func FromYAML(path string, data []byte, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	p := Pos{Line: 1, Col: 1}
	if m := yamlLineRE().FindStringSubmatch(msg); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil {
			p.Line = n
		}
		msg = msg[len(m[0]):]
	}
	lines := bytes.Split(data, []byte("\n"))
	if m := yamlAnchorRE().FindStringSubmatch(msg); m != nil {
		// Point at the first use of the missing anchor.
		for i, l := range lines {
			if c := bytes.Index(l, []byte("*"+m[1])); c >= 0 {
				p = Pos{Line: i + 1, Col: c + 1}
				break
			}
		}
		return NewError(path, p, "alias *%s refers to an anchor &%s that is not defined before it", m[1], m[1])
	}
	// yaml.v3 names a tab in an indentation on the line before it ("a tab
	// character that violates indentation"), or as a token it cannot
	// start on its own line.
	if tabAt, tokenAt := strings.Contains(msg, "tab character"), strings.Contains(msg, "cannot start any token"); tabAt || tokenAt {
		extra := 0
		if tabAt {
			extra = 1
		}
		if tp, ok := tabIndent(lines, p.Line, p.Line+extra); ok {
			return NewError(path, tp, tabMessage)
		}
	}
	return NewError(path, p, "invalid YAML: %s", yamlProblem(msg))
}

// NoPos builds a LoadError about the file as a whole ("FILE: message"),
// with cause for errors.Is.
func NoPos(path string, cause error, format string, args ...any) *Error {
	m := i18n.M(format, args...)
	return &Error{Path: path, Msg: termtext.Escape(m.String()), Err: cause, msg: m}
}
