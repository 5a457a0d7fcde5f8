package fastpath

// ScriptRegrantAcquire is bsm/redislock's obtain.lua for one key: SET NX,
// or, when the key already holds our token, a re-grant that renews its TTL
// ("if redis.call("msetnx", ...) ~= 1 then if canOverrideKeys() == false
// then return false end ... end; pexpire(ARGV[3]); return OK"). So a
// driver's resend of an acquire whose first send took the key is granted.
// KEYS: lock. ARGV: token, ttl ms. Returns 1 when granted, nil when not.
const ScriptRegrantAcquire = `if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
    return 1
end
if redis.call("get", KEYS[1]) == ARGV[1] then
    redis.call("pexpire", KEYS[1], ARGV[2])
    return 1
end
return false`

// fastRegrantAcquire is ScriptRegrantAcquire. SET validates the TTL before
// it writes (an error falls back to Lua), so the PEXPIRE after it cannot
// fail.
func fastRegrantAcquire(f *Path, keys, argv []string) (luaReply, bool) {
	r, err := f.call("SET", keys[0], argv[0], "NX", "PX", argv[1])
	if err != nil {
		return luaReply{}, false
	}
	if r != nil {
		return luaInt(1), true
	}
	r, err = f.call("GET", keys[0])
	if err != nil {
		return luaReply{}, false // not a string: Lua raises the same error
	}
	if s, isStr := r.(string); isStr && s == argv[0] {
		f.mustCall("regrant-acquire", "PEXPIRE", keys[0], argv[1])
		return luaInt(1), true
	}
	return luaFalse, true
}
