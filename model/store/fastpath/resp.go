package fastpath

import (
	"bufio"
	"bytes"

	"github.com/alicebob/miniredis/v2/server"
)

// ParseReply reads the one RESP reply in b as server.ParseReply would from a
// reader over b. The shapes nearly every reply has (a simple string, an
// integer, a null, a plain bulk string) are read straight from b: that
// spares ParseReply's line copy and buffer on every command. Anything else,
// or anything unusual about those shapes, goes to ParseReply through rd.
func ParseReply(b []byte, rd *bufio.Reader, src *bytes.Buffer) (any, error) {
	if v, ok := parseCommon(b); ok {
		return v, nil
	}
	rd.Reset(src)
	return server.ParseReply(rd)
}

// parseCommon is ParseReply's fast path; ok false means "ask ParseReply".
// It only accepts a buffer that holds exactly one well-formed reply.
func parseCommon(b []byte) (v any, ok bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 3 || b[i-1] != '\r' {
		return nil, false
	}
	line, last := b[1:i-1], i == len(b)-1
	switch b[0] {
	case '+':
		if !last {
			return nil, false
		}
		if string(line) == "OK" {
			return server.Simple("OK"), true // a constant: no allocation
		}
		return server.Simple(line), true
	case ':':
		n, ok := atoiDigits(line)
		if !ok || !last {
			return nil, false
		}
		return n, true
	case '$':
		if string(line) == "-1" {
			return nil, last
		}
		n, ok := atoiDigits(line)
		if !ok || n < 0 || len(b) != i+1+n+2 {
			return nil, false
		}
		return string(b[i+1 : i+1+n]), true
	}
	return nil, false
}

// atoiDigits parses an optional '-' and 1 to 18 decimal digits (no overflow
// possible), which strconv.Atoi reads the same; anything else is refused.
func atoiDigits(s []byte) (int, bool) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
