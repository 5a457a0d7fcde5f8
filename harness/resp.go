package harness

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/alicebob/miniredis/v2/server"
)

// Bounds on what one connection may send: a lock client sends commands of
// a few hundred bytes (a Lua script is the largest), so these are far
// beyond need and only stop a runaway client from eating the machine.
const (
	// MaxCommandArgs is the most arguments one command may carry.
	MaxCommandArgs = 1 << 16
	// MaxBulk is the largest argument, in bytes.
	MaxBulk = 16 << 20
	// MaxPending is the most unparsed bytes a connection may hold.
	MaxPending = 64 << 20
)

// errIncomplete: the buffer ends inside a command; wait for more bytes.
var errIncomplete = errors.New("incomplete command")

// parseCommand reads one RESP array of bulk strings (what every Redis
// driver sends) from the front of b. It returns errIncomplete when b ends
// inside the command, and another error when the bytes are not a command.
func parseCommand(b []byte) (args []string, rest []byte, err error) {
	n, r, err := header(b, '*')
	if err != nil {
		return nil, b, err
	}
	if n < 1 || n > MaxCommandArgs {
		return nil, b, fmt.Errorf("a command with %d arguments (1 to %d)", n, MaxCommandArgs)
	}
	args = make([]string, 0, n)
	for range n {
		sz, r2, err := header(r, '$')
		if err != nil {
			return nil, b, err
		}
		if sz < 0 || sz > MaxBulk {
			return nil, b, fmt.Errorf("an argument of %d bytes (0 to %d)", sz, MaxBulk)
		}
		if len(r2) < sz+2 {
			return nil, b, errIncomplete
		}
		if r2[sz] != '\r' || r2[sz+1] != '\n' {
			return nil, b, errors.New("an argument not ended by CRLF")
		}
		args = append(args, string(r2[:sz]))
		r = r2[sz+2:]
	}
	return args, r, nil
}

// header reads "<kind><number>\r\n".
func header(b []byte, kind byte) (int, []byte, error) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		if len(b) > 32 {
			return 0, nil, fmt.Errorf("a header line longer than 32 bytes")
		}
		return 0, nil, errIncomplete
	}
	if i < 2 || b[i-1] != '\r' || b[0] != kind {
		if b[0] != '*' && kind == '*' {
			return 0, nil, fmt.Errorf("an inline command (%q): only RESP arrays are understood", firstLine(b))
		}
		return 0, nil, fmt.Errorf("%q where %q was expected", firstLine(b), kind)
	}
	n, err := strconv.Atoi(string(b[1 : i-1]))
	if err != nil {
		return 0, nil, fmt.Errorf("a bad length %q", b[1:i-1])
	}
	return n, b[i+1:], nil
}

func firstLine(b []byte) string {
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		b = b[:i]
	}
	if len(b) > 40 {
		b = b[:40]
	}
	return string(b)
}

// appendReply encodes a node's reply (as model.World.ExecExternal gives it:
// miniredis's parsed RESP2) back into RESP2.
func appendReply(b []byte, v any, err error) []byte {
	if err != nil {
		return appendError(b, err.Error())
	}
	switch v := v.(type) {
	case nil:
		return append(b, "$-1\r\n"...)
	case server.Simple:
		return append(append(append(b, '+'), oneLine(string(v))...), "\r\n"...)
	case string:
		b = append(strconv.AppendInt(append(b, '$'), int64(len(v)), 10), "\r\n"...)
		return append(append(b, v...), "\r\n"...)
	case int:
		return append(strconv.AppendInt(append(b, ':'), int64(v), 10), "\r\n"...)
	case []any:
		b = append(strconv.AppendInt(append(b, '*'), int64(len(v)), 10), "\r\n"...)
		for _, e := range v {
			b = appendReply(b, e, nil)
		}
		return b
	}
	return appendError(b, fmt.Sprintf("ERR lockstep harness: a reply of type %T cannot be encoded", v))
}

func appendError(b []byte, msg string) []byte {
	return append(append(append(b, '-'), oneLine(msg)...), "\r\n"...)
}

func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s // every reply a node gives: no replacer to build
	}
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// unsupported names the commands lockstep cannot simulate over a harness
// connection, and why: they need a server that pushes or blocks, or
// per-connection state the simulated node does not keep.
var unsupported = map[string]string{
	"SUBSCRIBE": "push", "PSUBSCRIBE": "push", "SSUBSCRIBE": "push", "MONITOR": "push",
	"BLPOP": "blocking", "BRPOP": "blocking", "BLMOVE": "blocking", "BRPOPLPUSH": "blocking",
	"BLMPOP": "blocking", "BZPOPMIN": "blocking", "BZPOPMAX": "blocking", "BZMPOP": "blocking",
	"WAITAOF": "blocking", "XREAD": "blocking", "XREADGROUP": "blocking",
	"MULTI": "transaction", "EXEC": "transaction", "WATCH": "transaction", "DISCARD": "transaction",
	"SELECT": "per-connection", "CLIENT": "per-connection", "RESET": "per-connection",
}

// refusal is the error reply to a command lockstep cannot simulate, or ""
// when it can.
func refusal(args []string) string {
	name := strings.ToUpper(args[0])
	if name == "HELLO" {
		if len(args) > 1 && args[1] != "2" {
			return "ERR lockstep harness cannot simulate HELLO " + oneLine(args[1]) + ": only RESP2 (use Protocol: 2)"
		}
		return ""
	}
	why, ok := unsupported[name]
	if !ok {
		return ""
	}
	switch why {
	case "push":
		return "ERR lockstep harness cannot simulate " + name + ": pushed replies need a real server"
	case "blocking":
		return "ERR lockstep harness cannot simulate " + name + ": blocking commands are not simulated"
	case "transaction":
		return "ERR lockstep harness cannot simulate " + name + ": transactions are not simulated"
	}
	return "ERR lockstep harness cannot simulate " + name + ": per-connection state is not simulated"
}
