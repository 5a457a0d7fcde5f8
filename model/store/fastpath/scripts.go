package fastpath

// The Lua scripts the strategies send, each beside its Go twin's entry in
// fastScripts (package store names them for the model under the same
// names). They run through miniredis's real Lua engine whenever the fast
// path is off or declines, exactly as a client library would send them to
// Redis.

// ScriptRelease deletes the lock only if it still holds our token (《分布式锁：从 SET NX 到 Redlock》 §3).
const ScriptRelease = `if redis.call("get", KEYS[1]) == ARGV[1] then
    return redis.call("del", KEYS[1])
else
    return 0
end`

// ScriptRenew extends the lock only if it still holds our token: the
// watchdog's check-and-PEXPIRE (《分布式锁：SET NX EX 之外，还有五道坑》, Redisson's renewExpiration).
const ScriptRenew = `if redis.call("get", KEYS[1]) == ARGV[1] then
    return redis.call("pexpire", KEYS[1], ARGV[2])
else
    return 0
end`

// ScriptTouchOrSet is redsync's touchWithSetNXScript (scripts.go, used by
// Extend with WithSetNXOnExtend): extend our key, or SET it again where it
// is gone. KEYS: lock. ARGV: token, ttl ms. Returns 1 extended or set, 0
// someone else's.
const ScriptTouchOrSet = `if redis.call("get", KEYS[1]) == ARGV[1] then
    return redis.call("pexpire", KEYS[1], ARGV[2])
elseif redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[2], "NX") then
    return 1
else
    return 0
end`

// ScriptFencedAcquire grants the lock and draws the next fencing token in one
// atomic step, so a token is issued only with a grant.
// KEYS: lock, counter. ARGV: token, ttl ms. Returns the fencing token or nil.
const ScriptFencedAcquire = `if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
    return redis.call("incr", KEYS[2])
else
    return false
end`

// ScriptReentrantAcquire is the reentrant lock of 《分布式锁》 (cs-note): a hash of holder and
// count; the holder may take it again, anyone else gets 0.
// KEYS: lock. ARGV: token, ttl ms.
const ScriptReentrantAcquire = `local holder = redis.call("hget", KEYS[1], "holder")
if holder == ARGV[1] then
    redis.call("hincrby", KEYS[1], "count", 1)
    redis.call("pexpire", KEYS[1], ARGV[2])
    return 1
end
if holder == false then
    redis.call("hset", KEYS[1], "holder", ARGV[1], "count", 1)
    redis.call("pexpire", KEYS[1], ARGV[2])
    return 1
end
return 0`

// ScriptReentrantRelease is the unlock of 《分布式锁》 (cs-note): decrement, delete at zero.
// KEYS: lock. ARGV: token. Returns 1 when the count went down, 0 if not ours.
const ScriptReentrantRelease = `local holder = redis.call("hget", KEYS[1], "holder")
if holder ~= ARGV[1] then
    return 0
end
local count = redis.call("hincrby", KEYS[1], "count", -1)
if count <= 0 then
    redis.call("del", KEYS[1])
end
return 1`

// ScriptReentrantRenew extends a reentrant lock held by us.
// KEYS: lock. ARGV: token, ttl ms.
const ScriptReentrantRenew = `if redis.call("hget", KEYS[1], "holder") == ARGV[1] then
    return redis.call("pexpire", KEYS[1], ARGV[2])
else
    return 0
end`

// ScriptFairAcquire is a FIFO lock in the style of Redisson's FairLock: a
// list of waiters plus a sorted set of the instant each waiter's place
// expires (so a crashed waiter cannot block the queue for ever). Only the
// head of the queue may take a free lock; others join the tail.
// KEYS: lock, queue, timeouts. ARGV: token, ttl ms, now ms (the client's
// wall clock, as Redisson passes it), place timeout ms.
// Returns 1 when granted, 0 when queued.
const ScriptFairAcquire = `while true do
    local first = redis.call("lindex", KEYS[2], 0)
    if not first then break end
    local deadline = tonumber(redis.call("zscore", KEYS[3], first))
    if deadline ~= nil and deadline < tonumber(ARGV[3]) then
        redis.call("zrem", KEYS[3], first)
        redis.call("lpop", KEYS[2])
    else
        break
    end
end
if redis.call("exists", KEYS[1]) == 0 then
    local first = redis.call("lindex", KEYS[2], 0)
    if (not first) or first == ARGV[1] then
        if first then
            redis.call("lpop", KEYS[2])
            redis.call("zrem", KEYS[3], ARGV[1])
        end
        redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[2])
        return 1
    end
end
if not redis.call("zscore", KEYS[3], ARGV[1]) then
    redis.call("rpush", KEYS[2], ARGV[1])
end
redis.call("zadd", KEYS[3], tonumber(ARGV[3]) + tonumber(ARGV[4]), ARGV[1])
return 0`

// The scripts of real lock libraries, byte for byte, so that the harness
// (package harness) runs them on the Go fast path as it runs the project's
// own: a real client's EVALSHA names them by the SHA1 of exactly this text.

// ScriptRedsyncDelete is go-redsync/redsync v4.18.1's deleteScript
// (scripts.go): compare-and-delete, -1 when the key is gone.
const ScriptRedsyncDelete = `
	local val = redis.call("GET", KEYS[1])
	if val == ARGV[1] then
		return redis.call("DEL", KEYS[1])
	elseif val == false then
		return -1
	else
		return 0
	end
`

// ScriptRedsyncTouch is redsync v4.18.1's touchScript: compare-and-PEXPIRE
// (Extend).
const ScriptRedsyncTouch = `
	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("PEXPIRE", KEYS[1], ARGV[2])
	else
		return 0
	end
`

// ScriptRedsyncTouchSetNX is redsync v4.18.1's touchWithSetNXScript
// (WithSetNXOnExtend): compare-and-PEXPIRE, else SET NX PX.
const ScriptRedsyncTouchSetNX = `
	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("PEXPIRE", KEYS[1], ARGV[2])
	elseif redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2], "NX") then
		return 1
	else
		return 0
	end
`

// ScriptRedislockRelease is bsm/redislock v0.9.4's luaRelease.
const ScriptRedislockRelease = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

// ScriptRedislockRefresh is bsm/redislock v0.9.4's luaRefresh.
const ScriptRedislockRefresh = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`
