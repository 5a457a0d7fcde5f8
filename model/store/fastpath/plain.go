package fastpath

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"
)

// The plain-command fast path.
//
// After the Lua fast path, most of a lock scenario's time in miniredis was
// its dispatcher: for a SET NX PX, three rounds of the server's mutex, the
// command table, option parsing, a closure, two more rounds of the instance
// lock (auth and pub/sub checks) and another for the command itself. The
// plain lock commands (SET with NX and/or PX, SETNX, GET, DEL, PEXPIRE,
// EXISTS) are answered here instead, through miniredis's direct API on the
// store's DB 0: the data still lives in miniredis, and the reply is written
// with the same Peer methods the command's handler uses, so it is the same
// bytes.
//
// Each answer does what the handler's own code does to the database:
// SET k v is db.Set (drop the old value and its TTL, Store the string),
// PX adds db.SetTTL with the handler's duration, DEL deletes with the TTL,
// PEXPIRE sets the TTL of an existing key. The only difference is invisible:
// SET NX PX on a new key bumps the key's WATCH version twice (Set, then
// SetTTL) rather than once, and WATCH only asks whether it grew.
//
// Anything it does not reproduce exactly falls through to real dispatch
// before touching anything: an argument count or option other than the
// forms below, a key of another type (WRONGTYPE, or SET over it), a TTL that
// is not a positive integer or would overflow (error replies, and PEXPIRE's
// delete-now), and, through the store, a connection in MULTI or with connection
// state it cannot see, and every command on a replica. Commands the plain
// path answers are not counted in INFO's total_commands_processed (neither
// is a script the Lua fast path answers); nothing in the model reads it.

// plainKind is the shape of a plain command's reply.
type plainKind uint8

const (
	plainNull plainKind = iota // null bulk
	plainOK                    // +OK
	plainInt                   // :n
	plainBulk                  // $len s
)

// Reply is a reply of the plain fast path, before it is written.
type Reply struct {
	kind plainKind
	n    int
	s    string
}

// AppendRESP appends r as miniredis's RESP2 writer sends it (Writer's
// WriteNull, WriteInline("OK"), WriteInt, WriteBulk).
func (r Reply) AppendRESP(b []byte) []byte {
	switch r.kind {
	case plainNull:
		return append(b, "$-1\r\n"...)
	case plainOK:
		return append(b, "+OK\r\n"...)
	case plainInt:
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(r.n), 10)
		return append(b, "\r\n"...)
	}
	b = append(b, '$')
	b = strconv.AppendInt(b, int64(len(r.s)), 10)
	b = append(b, "\r\n"...)
	b = append(b, r.s...)
	return append(b, "\r\n"...)
}

// Value is r as ParseReply reads its RESP back (what redis.call hands a
// script, and what the store returns for a fast answer without the round
// trip through RESP).
func (r Reply) Value() any {
	switch r.kind {
	case plainOK:
		return server.Simple("OK")
	case plainInt:
		return r.n
	case plainBulk:
		return r.s
	}
	return nil
}

// Cmd is a command the fast path answers, by number: the store names
// each command once (its switch in Exec, or CmdOf), and the layers below
// switch on the number instead of comparing the name again.
type Cmd uint8

// The commands the fast path answers; CmdNone is any other.
const (
	CmdNone Cmd = iota
	CmdGet
	CmdSet
	CmdSetNX
	CmdDel
	CmdExists
	CmdPExpire
	CmdEval
	CmdEvalSHA
)

// CmdOf is the number of command name (upper case).
func CmdOf(name string) Cmd {
	switch name {
	case "GET":
		return CmdGet
	case "SET":
		return CmdSet
	case "SETNX":
		return CmdSetNX
	case "DEL":
		return CmdDel
	case "EXISTS":
		return CmdExists
	case "PEXPIRE":
		return CmdPExpire
	case "EVAL":
		return CmdEval
	case "EVALSHA":
		return CmdEvalSHA
	}
	return CmdNone
}

// plain answers cmd with args (the key first) on the store's DB 0, or
// returns ok=false, having changed nothing, when real dispatch must
// answer. It calls f.writing before its first change to the data.
func (f *Path) plain(cmd Cmd, args []string) (r Reply, ok bool) {
	db := f.st.DB()
	switch cmd {
	case CmdGet:
		return f.plainGet(db, args)
	case CmdSet:
		return f.plainSet(db, args)
	case CmdSetNX:
		if len(args) != 2 {
			return r, false
		}
		if db.Exists(args[0]) {
			return Reply{kind: plainInt}, true
		}
		f.writingAbsent(args[0])
		f.st.WroteUnknown()
		_ = db.Set(args[0], args[1]) // absent: cannot be of another type
		return Reply{kind: plainInt, n: 1}, true
	case CmdDel:
		switch len(args) {
		case 0:
			return r, false
		case 1:
			return Reply{kind: plainInt, n: f.delOne(args[0])}, true
		}
		// Deleting touches no other key's TTL: no need to sync them.
		// A copy, as in call: a slice passed to an interface's method
		// escapes, and would take every caller's variadic slice with it.
		f.del = append(f.del[:0], args...)
		n := f.st.Del(f.del)
		clear(f.del)
		return Reply{kind: plainInt, n: n}, true
	case CmdExists:
		if len(args) == 0 {
			return r, false
		}
		n := 0
		for _, k := range args {
			if db.Exists(k) {
				n++
			}
		}
		return Reply{kind: plainInt, n: n}, true
	case CmdPExpire:
		return f.plainPExpire(db, args)
	}
	return r, false
}

// plainGet is GET key.
func (f *Path) plainGet(db *miniredis.RedisDB, args []string) (r Reply, ok bool) {
	if len(args) != 1 {
		return r, false
	}
	v, err := db.Get(args[0])
	switch err {
	case nil:
		f.saw(args[0], true)
		return Reply{kind: plainBulk, s: v}, true
	case miniredis.ErrKeyNotFound:
		f.saw(args[0], false)
		return Reply{kind: plainNull}, true
	}
	return r, false // WRONGTYPE
}

// plainPExpire is PEXPIRE key ms; options (NX, XX, GT, LT) go to miniredis.
func (f *Path) plainPExpire(db *miniredis.RedisDB, args []string) (r Reply, ok bool) {
	if len(args) != 2 {
		return r, false
	}
	ttl, ok := f.millis(args[1])
	if !ok {
		return r, false
	}
	if !db.Exists(args[0]) {
		return Reply{kind: plainInt}, true
	}
	f.writing()
	f.st.WroteUnknown()
	f.st.SetTTL(args[0], ttl)
	return Reply{kind: plainInt, n: 1}, true
}

// plainSet is SET key value [NX] [PX ms] (NX before PX, as the lock recipes
// send it); any other option goes to miniredis.
func (f *Path) plainSet(db *miniredis.RedisDB, args []string) (r Reply, ok bool) {
	if len(args) < 2 {
		return r, false
	}
	key, value, opts := args[0], args[1], args[2:]
	nx := len(opts) > 0 && isOption(opts[0], "NX")
	if nx {
		opts = opts[1:]
	}
	var ttl time.Duration
	switch {
	case len(opts) == 0:
	case len(opts) == 2 && isOption(opts[0], "PX"):
		if ttl, ok = f.millis(opts[1]); !ok {
			return r, false
		}
	default:
		return r, false
	}
	if nx {
		if db.Exists(key) {
			f.saw(key, true)
			return Reply{kind: plainNull}, true
		}
		f.writingAbsent(key)
	} else if t := db.Type(key); t != "" && t != "string" {
		// miniredis's direct Set refuses to replace a key of another
		// type, which SET does: leave that to the handler.
		return r, false
	} else {
		f.writing()
	}
	_ = db.Set(key, value)
	if ttl > 0 {
		f.st.SetTTL(key, ttl)
	}
	if nx && ttl > 0 {
		// Absent before (NX): exactly this.
		f.st.WroteString(key, value, ttl)
		f.setKey, f.setValue, f.setOK = key, value, true
	} else {
		f.st.WroteUnknown()
	}
	return Reply{kind: plainOK}, true
}

// isOption is strings.EqualFold(s, upper), with the recipes' own spelling
// (upper case) answered by one comparison.
func isOption(s, upper string) bool { return s == upper || strings.EqualFold(s, upper) }

// millis is plainMillis with a memory of the last TTL it accepted: the
// same text has the same value, and a lock client sends the same TTL with
// every SET (Atoi was a tenth of a plain SET's own time).
func (f *Path) millis(s string) (time.Duration, bool) {
	if f.msText != "" && s == f.msText {
		return f.ms, true
	}
	d, ok := plainMillis(s)
	if ok {
		f.msText, f.ms = s, d
	}
	return d, ok
}

// plainMillis parses a TTL in milliseconds the way SET PX and PEXPIRE do
// (strconv.Atoi, times a millisecond), accepting only what gives a positive
// duration without overflow: the rest is an error reply or, for PEXPIRE, an
// immediate delete, which miniredis's own handler produces.
func plainMillis(s string) (time.Duration, bool) {
	ms, err := strconv.Atoi(s)
	if err != nil || ms <= 0 || ms > math.MaxInt64/int(time.Millisecond) {
		return 0, false
	}
	return time.Duration(ms) * time.Millisecond, true
}
