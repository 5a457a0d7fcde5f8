package scenario

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// LoadError is a problem with a scenario file. Its text is
// "FILE:LINE:COL: message" so editors and terminals can jump to the spot.
type LoadError struct {
	Path string // the path given to Load
	Pos  Pos    // 1-based; Col is 1 when only the line is known
	Msg  string
}

// Error returns "FILE:LINE:COL: message".
func (e *LoadError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Pos.Line, e.Pos.Col, e.Msg)
}

// newError builds a LoadError, clamping the position to at least 1:1 so the
// FILE:LINE:COL form always holds (yaml.v3 reports some problems at line 0).
func newError(path string, p Pos, format string, args ...any) *LoadError {
	if p.Line < 1 {
		p.Line = 1
	}
	if p.Col < 1 {
		p.Col = 1
	}
	return &LoadError{Path: path, Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// before reports whether p comes earlier in the file than q.
func (p Pos) before(q Pos) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

var (
	yamlLineRE   = regexp.MustCompile(`^line (\d+): `)
	yamlAnchorRE = regexp.MustCompile(`unknown anchor '([^']*)' referenced`)
)

// fromYAML turns a yaml.v3 parse error ("yaml: line 3: found ...") into a
// LoadError. yaml.v3 only gives a line, and omits it for problems on line 1
// and for unknown anchors, so the column is recovered where the data allows.
func fromYAML(path string, data []byte, err error) *LoadError {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	p := Pos{Line: 1, Col: 1}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil {
			p.Line = n
		}
		msg = msg[len(m[0]):]
	}
	lines := bytes.Split(data, []byte("\n"))
	if m := yamlAnchorRE.FindStringSubmatch(msg); m != nil {
		// Point at the first use of the missing anchor.
		for i, l := range lines {
			if c := bytes.Index(l, []byte("*"+m[1])); c >= 0 {
				p = Pos{Line: i + 1, Col: c + 1}
				break
			}
		}
		return newError(path, p, "alias *%s refers to an anchor &%s that is not defined before it", m[1], m[1])
	}
	if strings.Contains(msg, "tab character") || strings.Contains(msg, "cannot start any token") {
		if p.Line <= len(lines) {
			if c := bytes.IndexByte(lines[p.Line-1], '\t'); c >= 0 {
				p.Col = c + 1
				return newError(path, p, "tab character: YAML indents with spaces only (%s)", msg)
			}
		}
	}
	return newError(path, p, "invalid YAML: %s", msg)
}
