package store

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/lockstep-sim/lockstep/model/store/fastpath"
)

// capturePre reads the states of the keys the running command may write,
// before its first change to the data: exec diffs them against the states
// after it. The fast path calls it (through fastHost.Writing) before it
// writes; exec before it dispatches. Only the first call reads.
func (s *Store) capturePre() { s.capturePreKnowing(nil) }

// capturePreKnowing is capturePre when the caller already knows something
// of the keys in gone: each is missing (a SET NX found it so and is about
// to create it) or about to be deleted (DEL), so its state is not read;
// a deletion completes it (see delKeys). A list, not a key with "" for
// none: "" is a key like any other.
func (s *Store) capturePreKnowing(gone []string) {
	s.fast.ForgetString() // a write is about to begin
	r := &s.cmd
	if r.preRead {
		return
	}
	r.preRead = true
	if r.preKey != "" {
		r.keyBefore = s.db().Exists(r.preKey)
	}
	if len(r.touched) == 1 && slices.Contains(gone, r.touched[0]) {
		// The usual fast write (SET NX PX of a free lock, its release):
		// whether the key existed is all diff needs (see running.one),
		// and a deletion reports it (delKeys).
		r.one, r.oneExisted = true, false
		return
	}
	for _, k := range r.touched {
		if slices.Contains(gone, k) {
			r.pre = append(r.pre, Effect{Key: k, Deleted: true}) // what keyState reads for a missing key
			continue
		}
		r.pre = append(r.pre, s.KeyState(k))
	}
}

// capturePreOne is capturePreKnowing of the one key gone, with the usual
// fast write (gone is the command's only touched key, the tracked one)
// settled by one comparison instead of a slice built and searched.
func (s *Store) capturePreOne(gone string) {
	r := &s.cmd
	if r.preRead || len(r.touched) != 1 || r.preKey != "" || r.touched[0] != gone {
		s.capturePreKnowing([]string{gone})
		return
	}
	s.fast.ForgetString() // a write is about to begin
	r.preRead, r.one, r.oneExisted = true, true, false
}

// delKey is delKeys of one key, the owner's release: whether it existed.
func (s *Store) delKey(key string) bool {
	first := !s.cmd.preRead
	s.capturePreOne(key)
	*s.knowPost() = Effect{Key: key, Deleted: true} // what KeyState reads for a missing key
	if !s.db0.Del(key) {
		return false
	}
	switch {
	case !first:
	case s.cmd.one:
		// Set by this call's capturePreOne: key is the touched one.
		s.cmd.oneExisted = true
	default:
		if i := slices.Index(s.cmd.touched, key); i >= 0 {
			s.cmd.pre[i].Deleted = false // it existed (see delKeys)
		}
	}
	return true
}

// delKeys deletes keys from DB 0, the running command's first change or not,
// and returns how many existed. When it is the first, the states before of
// the keys it deletes are not read in full: a deleted key's state after is
// the same whatever it held, so exec's diff and its ground truth only need
// whether it existed, which each deletion reports.
//
// It does not tell miniredis the time (tellTime): a DEL reads it only to
// stamp the LRU clock of a key it then removes, stamp and all.
func (s *Store) delKeys(keys []string) int {
	db := s.db0
	first := !s.cmd.preRead
	s.capturePreKnowing(keys)
	count := 0
	if len(keys) == 1 {
		*s.knowPost() = Effect{Key: keys[0], Deleted: true} // what KeyState reads for a missing key
	} else {
		s.forgetPost()
	}
	for _, k := range keys {
		if !db.Del(k) {
			continue
		}
		count++
		switch {
		case !first:
		case s.cmd.one:
			s.cmd.oneExisted = s.cmd.oneExisted || k == s.cmd.touched[0]
		default:
			if i := slices.Index(s.cmd.touched, k); i >= 0 {
				s.cmd.pre[i].Deleted = false // it existed (only Deleted is compared: see above)
			}
		}
	}
	return count
}

// How a write command names the keys it touches.
type keySpec uint8

const (
	keysFirst  keySpec = iota // args[1]
	keysAll                   // every argument (DEL, UNLINK)
	keysPairs                 // args[1], args[3], ... (MSET)
	keysTwo                   // args[1] and args[2] (RENAME, LMOVE, ...)
	keysScript                // EVAL/EVALSHA: numkeys then KEYS
	keysFlush                 // every key in the database
)

// writeCommands lists the commands that can change data, with where their
// keys are. Anything else is treated as a read (no log entry, allowed on a
// replica). Built on first use, as are the other tables of commands: a
// lock scenario's commands are answered by classify's switch and the fast
// path, so a run that dispatches nothing to miniredis never builds them
// (they were a quarter of the package inits' time in every process).
var writeCommands = sync.OnceValue(func() map[string]keySpec {
	m := map[string]keySpec{}
	add := func(spec keySpec, names string) {
		for _, c := range strings.Fields(names) {
			m[c] = spec
		}
	}
	add(keysFirst, `SET SETNX SETEX PSETEX GETSET GETDEL GETEX APPEND SETRANGE
		INCR INCRBY INCRBYFLOAT DECR DECRBY
		EXPIRE PEXPIRE EXPIREAT PEXPIREAT PERSIST
		HSET HMSET HSETNX HINCRBY HINCRBYFLOAT HDEL
		RPUSH LPUSH RPUSHX LPUSHX LPOP RPOP LREM LSET LTRIM LINSERT
		SADD SREM SPOP
		ZADD ZREM ZINCRBY ZPOPMIN ZPOPMAX ZREMRANGEBYSCORE ZREMRANGEBYRANK`)
	add(keysAll, "DEL UNLINK")
	add(keysPairs, "MSET MSETNX")
	add(keysTwo, "RENAME RENAMENX RPOPLPUSH LMOVE SMOVE COPY")
	add(keysScript, "EVAL EVALSHA")
	add(keysFlush, "FLUSHALL FLUSHDB")
	return m
})

// touchedKeys lists the keys a write command may change. Scripts are trusted
// to declare their keys in KEYS, as Redis requires; a script writing an
// undeclared key would change data without a log entry.
func (s *Store) touchedKeys(spec keySpec, args []string) []string {
	switch spec {
	case keysFirst:
		if len(args) > 1 {
			return args[1:2]
		}
	case keysAll:
		return args[1:]
	case keysPairs:
		var ks []string
		for i := 1; i < len(args); i += 2 {
			ks = append(ks, args[i])
		}
		return ks
	case keysTwo:
		if len(args) > 2 {
			return args[1:3]
		}
		return args[1:]
	case keysScript:
		return scriptKeys(args)
	case keysFlush:
		return s.mini().Keys()
	}
	return nil
}

// scriptKeys are EVAL's or EVALSHA's KEYS.
func scriptKeys(args []string) []string {
	if len(args) < 3 {
		return nil
	}
	nk, err := 1, error(nil) // a lock script's numkeys, without Atoi
	if args[2] != "1" {
		nk, err = strconv.Atoi(args[2])
	}
	if err != nil || nk < 0 || 3+nk > len(args) {
		return nil // miniredis answers with an error and changes nothing
	}
	return args[3 : 3+nk]
}

// dedupe drops repeated keys (DEL k k), keeping the first occurrence. The
// lists are short, so a quadratic scan beats a map.
func dedupe(ks []string) []string {
	if len(ks) < 2 {
		return ks
	}
	out := ks[:0:0]
	for i, k := range ks {
		if !slices.Contains(ks[:i], k) {
			out = append(out, k)
		}
	}
	return out
}

// connStateCommands change per-connection state that miniredis keeps out of
// reach (selected DB, pub/sub mode, authentication, protocol).
var connStateCommands = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"SELECT": true, "SUBSCRIBE": true, "PSUBSCRIBE": true, "SSUBSCRIBE": true,
		"AUTH": true, "HELLO": true, "RESET": true,
	}
})

// readCommands are commands known not to write, so they leave minExpire
// valid. Anything neither here nor in writeCommands (RESTORE, SWAPDB, MOVE,
// SORT ... STORE, ...) may give a key a TTL without naming it and
// invalidates the bound.
var readCommands = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(`GET MGET STRLEN GETRANGE EXISTS TYPE TTL PTTL
		EXPIRETIME PEXPIRETIME HGET HMGET HGETALL HKEYS HVALS HLEN HEXISTS HSTRLEN
		LINDEX LLEN LRANGE LPOS SCARD SISMEMBER SMISMEMBER SMEMBERS ZSCORE ZMSCORE
		ZCARD ZRANK ZREVRANK ZRANGE ZREVRANGE ZRANGEBYSCORE ZCOUNT KEYS SCAN DBSIZE
		PING ECHO TIME INFO WATCH UNWATCH MULTI DISCARD SCRIPT SELECT`) {
		m[c] = true
	}
	return m
})

// expiryKnown reports whether, after cmd ran (outside MULTI) in miniredis,
// minExpire is still a lower bound: the command wrote nothing, or wrote only
// the keys exec knows it touched (whose new expiry it folded in). A script
// in real Lua may write keys it did not declare (the fast path's twins
// never do, so exec does not ask after a fast answer). EXEC runs queued
// commands exec did not look at.
func expiryKnown(cmd string, isWrite bool) bool {
	switch {
	case cmd == "EVAL" || cmd == "EVALSHA" || cmd == "EXEC":
		return false
	case isWrite:
		return true
	}
	return isRead(cmd)
}

// isRead is readCommands()[cmd], out of line so that its callers stay
// small enough to inline.
func isRead(cmd string) bool { return readCommands()[cmd] }

// noFieldTTLs reports whether cmd is known not to give a hash field a TTL
// of its own (HEXPIRE and friends do; a script in Lua or a transaction
// might).
func noFieldTTLs(cmd string, isWrite bool, spec keySpec) bool {
	return (isWrite && spec != keysScript) || isRead(cmd)
}

// classifyOn is ExecAs's classification of a command hotClass does not
// know: its name in upper case and number, where its keys are and whether
// it writes; a command that changes connection state the fast path cannot
// see taints c (keepsRESP2 aside).
func classifyOn(c *nodeConn, args []string) (cmd string, code fastpath.Cmd, spec keySpec, isWrite bool) {
	cmd = strings.ToUpper(args[0])
	spec, isWrite, connState := classify(cmd)
	if connState && !keepsRESP2(cmd, args) {
		c.tainted = true
	}
	return cmd, fastpath.CmdOf(cmd), spec, isWrite
}

// classify is writeCommands[cmd] and connStateCommands[cmd] at once, with
// the lock recipes' commands answered by a switch (hotClass): two map
// lookups of the command name were a tenth of Exec's time.
func classify(cmd string) (spec keySpec, isWrite, connState bool) {
	if _, spec, isWrite, ok := hotClass(cmd); ok {
		return spec, isWrite, false
	}
	return classifyByTables(cmd)
}

// classifyByTables is classify for a command hotClass does not know.
func classifyByTables(cmd string) (spec keySpec, isWrite, connState bool) {
	spec, isWrite = writeCommands()[cmd]
	return spec, isWrite, !isWrite && connStateCommands()[cmd]
}

// hotClass is classify for the lock recipes' commands in upper case, as
// every client sends them (none changes connection state), with the fast
// path's number for the command (fastpath.CmdOf); ok is false for any other
// command, or one in lower case.
func hotClass(cmd string) (code fastpath.Cmd, spec keySpec, isWrite, ok bool) {
	switch cmd {
	case "SET":
		return fastpath.CmdSet, keysFirst, true, true
	case "SETNX":
		return fastpath.CmdSetNX, keysFirst, true, true
	case "PEXPIRE":
		return fastpath.CmdPExpire, keysFirst, true, true
	case "INCR", "HINCRBY", "HSET":
		return fastpath.CmdNone, keysFirst, true, true
	case "EVALSHA":
		return fastpath.CmdEvalSHA, keysScript, true, true
	case "EVAL":
		return fastpath.CmdEval, keysScript, true, true
	case "DEL":
		return fastpath.CmdDel, keysAll, true, true
	case "GET":
		return fastpath.CmdGet, 0, false, true
	case "EXISTS":
		return fastpath.CmdExists, 0, false, true
	case "PTTL", "HGET":
		return fastpath.CmdNone, 0, false, true
	}
	return fastpath.CmdNone, 0, false, false
}

// keepsRESP2 reports a HELLO that changes nothing the fast path could
// miss: "HELLO" or "HELLO 2" alone, which every go-redis connection sends
// first (it names no user, password or client, and keeps RESP2). Any other
// HELLO taints the connection as before.
func keepsRESP2(cmd string, args []string) bool {
	return cmd == "HELLO" && (len(args) == 1 || len(args) == 2 && args[1] == "2")
}
