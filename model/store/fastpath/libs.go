package fastpath

// Go twins of real lock libraries' scripts (scripts.go, the harness). The
// ones whose logic is the project's own reuse fastRelease and fastRenew.

import "strconv"

// fastRedsyncDelete is ScriptRedsyncDelete: GET; DEL if ours, -1 if the
// key is gone, else 0.
func fastRedsyncDelete(f *Path, keys, argv []string) (luaReply, bool) {
	r, ok := f.plain(CmdGet, keys[:1])
	if !ok {
		v, err := f.call("GET", keys[0])
		if err != nil {
			return luaReply{}, false // a wrong type: Lua raises
		}
		s, isStr := v.(string)
		r = Reply{kind: plainNull}
		if isStr {
			r = Reply{kind: plainBulk, s: s}
		}
	}
	switch {
	case r.kind == plainNull:
		return luaInt(-1), true
	case r.kind != plainBulk:
		return luaReply{}, false
	case r.s != argv[0]:
		return luaInt(0), true
	}
	return luaInt(f.delOne(keys[0])), true
}

// fastRedsyncTouchSetNX is ScriptRedsyncTouchSetNX: PEXPIRE if ours, else
// SET NX PX (1 if it took the key, 0 if another holds it).
func fastRedsyncTouchSetNX(f *Path, keys, argv []string) (luaReply, bool) {
	if r, ok, decided := f.owned(argv[0], "GET", keys[0]); !decided {
		return f.pexpire(keys[0], argv[1])
	} else if !ok {
		return r, false
	}
	if !validPX(argv[1]) {
		return luaReply{}, false // SET raises: nothing written yet
	}
	r, err := f.call("SET", keys[0], argv[0], "PX", argv[1], "NX")
	if err != nil {
		return luaReply{}, false
	}
	if r == nil {
		return luaInt(0), true
	}
	return luaInt(1), true
}

// ScriptRedislockObtain is bsm/redislock v0.9.4's luaObtain (redislock.go),
// byte for byte: SET NX PX, or, when the key's first ARGV[2] bytes are the
// token's (the same token, any metadata after it), SET it again. KEYS:
// lock. ARGV: value (token + metadata), the token's length, ttl ms.
// Replies OK when it set the key, nil when not.
const ScriptRedislockObtain = `
if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[3]) then return redis.status_reply("OK") end

local offset = tonumber(ARGV[2])
if redis.call("getrange", KEYS[1], 0, offset-1) == string.sub(ARGV[1], 1, offset) then return redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[3]) end
`

// maxObtainOffset bounds the token length the twin compares; redislock's
// tokens are 22 bytes, and anything odd (past this, not a canonical
// positive integer) is left to Lua, whose tonumber, GETRANGE and
// string.sub then decide.
const maxObtainOffset = 1 << 20

// fastRedislockObtain is ScriptRedislockObtain. The first SET validates
// the TTL before it writes, so the second cannot fail on it; GETRANGE of a
// key that is not a string raises in Lua, so it falls through (nothing
// written: SET NX found the key and wrote nothing).
func fastRedislockObtain(f *Path, keys, argv []string) (luaReply, bool) {
	offset, err := strconv.Atoi(argv[1])
	if err != nil || offset < 1 || offset > maxObtainOffset || strconv.Itoa(offset) != argv[1] {
		return luaReply{}, false
	}
	r, err := f.call("SET", keys[0], argv[0], "NX", "PX", argv[2])
	if err != nil {
		return luaReply{}, false
	}
	if r != nil {
		return luaOK, true
	}
	v, err := f.call("GETRANGE", keys[0], "0", strconv.Itoa(offset-1))
	s, isStr := v.(string)
	if err != nil || !isStr {
		return luaReply{}, false
	}
	if s != argv[0][:min(offset, len(argv[0]))] {
		return luaFalse, true // the script ends without a return: nil
	}
	f.mustCall("redislock-obtain", "SET", keys[0], argv[0], "PX", argv[2])
	return luaOK, true
}
