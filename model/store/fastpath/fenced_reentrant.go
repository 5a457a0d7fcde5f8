package fastpath

import (
	"math"
	"strconv"
)

// ScriptReentrantFencedAcquire is Redisson's FencedLock: a reentrant lock
// (the hash of ScriptReentrantAcquire) whose every acquisition, a re-entry
// included, draws the next fencing token (RedissonFencedLock.java,
// tryLockInnerAsync: "if exists == 0 or hexists(KEYS[1], ARGV[2]) then
// local token = incr(KEYS[2]); hincrby(KEYS[1], ARGV[2], 1); pexpire ...;
// return {-1, token}"). KEYS: lock, counter. ARGV: token, ttl ms. Returns
// the fencing token, or nil when another holds the lock.
const ScriptReentrantFencedAcquire = `local holder = redis.call("hget", KEYS[1], "holder")
if holder == ARGV[1] then
    redis.call("hincrby", KEYS[1], "count", 1)
elseif holder == false then
    redis.call("hset", KEYS[1], "holder", ARGV[1], "count", 1)
else
    return false
end
redis.call("pexpire", KEYS[1], ARGV[2])
return redis.call("incr", KEYS[2])`

// fastReentrantFencedAcquire is ScriptReentrantFencedAcquire. Every write
// that could fail is known not to before the first one (a script is not
// rolled back), or real Lua decides.
func fastReentrantFencedAcquire(f *Path, keys, argv []string) (luaReply, bool) {
	const name = "reentrant-fenced-acquire"
	if !validPEXPIRE(argv[1]) {
		return luaReply{}, false
	}
	r, err := f.call("GET", keys[1])
	if err != nil {
		return luaReply{}, false
	}
	if s, isStr := r.(string); isStr {
		if v, err := strconv.Atoi(s); err != nil || v == math.MaxInt {
			return luaReply{}, false
		}
	}
	switch taken, ok := f.takeReentrant(name, keys[0], argv[0], argv[1]); {
	case !ok:
		return luaReply{}, false
	case !taken:
		return luaFalse, true
	}
	return luaInt(luaNum(f.mustCall(name, "INCR", keys[1]).(int))), true
}
