package scenario

import "github.com/lockstep-sim/lockstep/model"

// Profiles is the table of client profiles (profiles.go), one row per
// library. Each row's lock block follows the library's source as cited;
// what the format cannot say yet is named in the row's comment.
var Profiles = withParsed([]*Profile{
	{
		Name:    "redsync",
		Library: "go-redsync/redsync v4.18.1 on go-redis v9",
		Doc:     "Redlock in Go: 8s expiry, 32 tries 50-250ms apart, parallel, waits for every reply, no +2ms, monotonic elapsed; no deadline without go-redis's ContextTimeoutEnabled",
		Sources: []string{
			"redsync.go NewMutex: expiry 8s, tries 32, delayFunc a uniform 50-250 ms (Intn(200)+50), driftFactor 0.01, timeoutFactor 0.05",
			"mutex.go lockContext: until = now + expiry - now.Sub(start) - expiry*driftFactor (no +2ms); n >= quorum && now.Before(until); release on every pool after a failed try",
			"mutex.go actOnPoolsAsync: one goroutine per pool, reads len(pools) results: waits for every reply",
			"go-redis options.go init: ReadTimeout 5s; ContextTimeoutEnabled false by default, so the attempt's context deadline is not honoured",
		},
		// The retry pause is delay × (1 − jitter + rand × jitter): 250ms ×
		// [0.2, 1] is redsync's uniform 50-250ms (continuous, not whole ms).
		// A watchdog: block stands for the caller's goroutine calling
		// Mutex.Extend every watchdog.every (ExtendContext: a quorum of
		// touches and a positive validity, no look at the old lease;
		// WithSetNXOnExtend is extend_sets_missing). driver.retries 3
		// is go-redis's MaxRetries: a command whose read timed out is sent
		// again (options.go, shouldRetry).
		Lock: `
strategy: redlock
ttl: 8s
timeout: 5s
driver: {retries: 3}
retry: {attempts: 32, delay: 250ms, jitter: 0.8}
redlock:
  drift_factor: 0.01
  drift_slack: false
  parallel: true
  decide: all
  deadline: none
  timeout_factor: 0.05
  elapsed: monotonic
  lease_from: reply
  extend_late: allow
  extend_sets_missing: false
`,
		refuse: []refusal{
			{keyReentrant, "redsync's Mutex is not reentrant"},
			{keyFair, "redsync has no fair lock"},
		},
	},
	{
		Name:    "redisson",
		Library: "redisson/redisson RLock (Redisson 3.x)",
		Doc:     "Redisson's RLock: one node, Lua, reentrant, 30s lease renewed every 10s; an explicit ttl (leaseTime) turns the watchdog off",
		Sources: []string{
			"Config.java: lockWatchdogTimeout 30000 ms; RedissonBaseLock: renewal every internalLockLeaseTime / 3",
			"RedissonLock.tryAcquireAsync: leaseTime > 0 uses it as is; otherwise the watchdog lease and scheduleExpirationRenewal",
			"BaseConfig.java: timeout 3000 ms per command",
		},
		// RenewalTask reschedules after a failed renewal (on_failure:
		// retry); waiters wake on LockPubSub's release message (notify:
		// pubsub); retryAttempts 4, but since 3.36 the lock and unlock
		// scripts are sent NoRetry (driver.lock_commands: false).
		// tryLock(waitTime, ...) is lock.wait; fair: true is
		// RedissonFairLock (fair_timeout: its threadWaitTime); fencing:
		// token is a FencedLock.
		Lock: `
strategy: lua-release
ttl: 30s
timeout: 3s
reentrant: true
watchdog: {every: 10s, on_failure: retry}
notify: pubsub
driver: {retries: 4, lock_commands: false}
`,
		tune: redissonTune,
	},
	{
		Name:    "redisson-redlock",
		Library: "redisson/redisson RedissonRedLock (deprecated)",
		Doc:     "Redisson's RedLock: sequential over the masters, quorum N/2+1, 1500ms per lock (waitTime/N), no validity, each sub-lock's 30s watchdog",
		Sources: []string{
			"RedissonRedLock.java: failedLocksLimit = N - (N/2+1); calcLockWaitTime = max(remainTime / N, 1)",
			"RedissonMultiLock.lockInterruptibly: baseWaitTime = N × 1500 ms, loops on tryLock until it succeeds; tryLock asks the locks one after another",
			"RedissonMultiLock.tryLock: no elapsed-time or validity check once enough locks are held",
		},
		// lock() loops forever; 1000 attempts stand for it within any run
		// the budget allows. The sub-locks' watchdog is one renewal of the
		// whole Redlock here.
		Lock: `
strategy: redlock
ttl: 30s
timeout: 3s
watchdog: {every: 10s}
retry: {attempts: 1000, delay: 0s}
redlock:
  parallel: false
  request_timeout: 1500ms
  validity_check: false
  elapsed: wall
`,
		refuse: []refusal{
			{keyReentrant, "lockstep's Redlock has no reentrant variant"},
			{keyFair, "RedissonRedLock has no fair variant"},
		},
		tune: leaseTurnsWatchdogOff,
	},
	{
		Name:    "node-redlock",
		Library: "mike-marcacci/node-redlock v5",
		Doc:     "Redlock in Node: 11 attempts 200ms ± 100ms apart, parallel, decides at the first quorum, computes but never checks validity, Date.now elapsed; the caller's ttl",
		Sources: []string{
			"src/index.ts defaultSettings: driftFactor 0.01, retryCount 10, retryDelay 200, retryJitter 100",
			"src/index.ts _execute: maxAttempts = retryCount + 1; pause retryDelay + floor((random×2−1) × retryJitter)",
			"src/index.ts _attemptOperation: start = Date.now(); resolves when votesFor or votesAgainst reaches quorumSize",
			"src/index.ts acquire: expiration = start + duration − (round(driftFactor × duration) + 2), never compared with now",
			"src/index.ts acquire: the release script runs only in its catch, once every attempt failed; ACQUIRE_SCRIPT returns 0 if any key exists",
		},
		// No timeout is set: node-redlock has none and ioredis's
		// commandTimeout is unset by default; lock.timeout stands for it.
		// The pause is delay × (1 − jitter + rand × jitter): 300ms ×
		// [1/3, 1] is 100-300ms. using()'s extension 500ms before expiry
		// is a watchdog: block of every: ttl − 500ms; extend() refuses an
		// expired lock before sending (extend_late: error, node-redlock#283).
		// acquire() releases only once _execute has given up (its catch):
		// a failed attempt's keys stay and vote against its own next one
		// (release_failed: end). Not modelled: using()'s abort signal.
		Lock: `
strategy: redlock
retry: {attempts: 11, delay: 300ms, jitter: 0.6666666666666666}
redlock:
  drift_factor: 0.01
  drift_slack: true
  parallel: true
  decide: first-quorum
  validity_check: false
  deadline: none
  elapsed: wall
  lease_from: reply
  extend_late: error
  release_failed: end
`,
		refuse: []refusal{
			{keyReentrant, "node-redlock's locks are not reentrant"},
			{keyFair, "node-redlock has no fair lock"},
		},
	},
	{
		Name:    "redislock",
		Library: "bsm/redislock v0.9.4 on go-redis v9",
		Doc:     "redislock in Go: one node, Lua obtain and compare-and-delete release, the caller's ttl, no retry by default, go-redis's 5s read timeout",
		Sources: []string{
			"redislock.go Obtain: the caller's ttl; Options.getRetryStrategy returns NoRetry() when none is given",
			"redislock.go luaRelease: compare-and-delete; Refresh is manual",
			"go-redis options.go init: ReadTimeout 5s",
		},
		// go-redis MaxRetries 3 resends a command whose read timed out; the
		// obtain script accepts its own token (regrant), so a duplicate
		// is harmless.
		Lock: `
strategy: lua-release
timeout: 5s
regrant: true
driver: {retries: 3}
`,
		refuse: []refusal{
			{keyReentrant, "redislock's locks are not reentrant"},
			{keyFair, "redislock has no fair lock"},
			{keyWatchdog, "redislock has no watchdog: the caller refreshes with Lock.Refresh"},
		},
	},
	{
		Name:    "redis-py",
		Library: "redis/redis-py 8.0 Lock (redis/lock.py)",
		Doc:     "redis-py's Lock: one node, SET NX PX and a Lua release, tries again every 0.1s until it wins, the caller's ttl, no watchdog; 5s socket timeout, 10 resends",
		Sources: []string{
			"redis/lock.py Lock.__init__: sleep 0.1, blocking True, blocking_timeout None (try forever), thread_local True",
			"redis/lock.py acquire: while True: do_acquire (SET name token NX PX timeout), else mod_time.sleep(sleep); stop_trying_at on mod_time.monotonic()",
			"redis/lock.py LUA_RELEASE_SCRIPT: get, compare with the token, del; LUA_REACQUIRE_SCRIPT: compare, pexpire timeout",
			"redis/_defaults.py: DEFAULT_SOCKET_TIMEOUT 5s, DEFAULT_RETRY_COUNT 10; redis/retry.py Retry: supported_errors ConnectionError, TimeoutError, socket.timeout",
		},
		// blocking forever is 1000000 attempts (MaxAttempts) 100ms apart:
		// the run's duration ends them first. blocking_timeout is lock.wait,
		// with two differences: redis-py reads the monotonic clock (lock.wait
		// the wall clock) and gives up when the next sleep would pass it
		// (lock.wait cuts the last pause short). A watchdog: block stands for
		// a caller's thread calling reacquire() (PEXPIRE timeout if the token
		// is ours) every watchdog.every; extend(t), which adds t to the
		// remaining TTL, is not modelled. driver.retries 10 is redis-py's
		// Retry on a socket timeout; redis-py backs off 10ms-1s between
		// resends, lockstep resends at once. The token is per thread
		// (thread_local): each lockstep client is one thread.
		Lock: `
strategy: lua-release
timeout: 5s
driver: {retries: 10}
retry: {attempts: 1000000, delay: 100ms}
`,
		refuse: []refusal{
			{keyReentrant, "redis-py's Lock is not reentrant (a second acquire by its holder waits like any other)"},
			{keyFair, "redis-py has no fair lock"},
		},
	},
	{
		Name:    "shedlock",
		Library: "lukas-krecan/ShedLock RedisLockProvider (shedlock-support-redis)",
		Doc:     "ShedLock's scheduler lock: SET NX PX lockAtMostFor (the ttl), no waiting (a locked run is skipped), lockAtLeastFor (hold_at_least) keeps the key after an early unlock; blind DEL unless safeUpdate (strategy lua-release)",
		Sources: []string{
			"InternalRedisLockProvider.lock: createLock = setIfAbsent(key, value, lockAtMostUntil - now) (SET NX PX)",
			"InternalRedisLockProvider.RedisLock.doUnlock: keepLockFor = lockAtLeastUntil - now; <= 0: deleteLock, else setKeyExpiration(keepLockFor)",
			"InternalRedisLockProvider.deleteLock / setKeyExpiration: safeUpdate ? delLuaScript / updLuaScript (GET == value, then DEL / PEXPIRE) : delete(key) / setIfPresent (SET XX PX)",
			"RedisLockProvider.Builder: safeUpdate = false; DefaultLockingTaskExecutor: a lock that is not obtained logs \"Not executing ... It's locked.\" and skips the run",
			"LockConfiguration: lockAtLeastFor longer than lockAtMostFor is an IllegalArgumentException; both from createdAt, the client's clock (ClockProvider.now)",
		},
		// The ttl is lockAtMostFor, the caller's (required; ShedLock has no
		// default). No retry: a scheduled run that finds the lock taken is
		// skipped, and lockstep counts it as a failed acquire. set-del is
		// the default builder (safeUpdate false: DEL and SET XX PX, blind);
		// strategy lua-release is safeUpdate(true). The command timeout is
		// the Redis client's (Lettuce's 60s, Jedis's 2s): lock.timeout.
		// KeepAliveLockProvider's extension every lockAtMostFor / 2 is a
		// watchdog: block under lua-release.
		Lock: `
strategy: set-del
`,
		also: []string{model.StrategyLuaRelease},
		refuse: []refusal{
			{keyReentrant, "ShedLock's locks are not reentrant"},
			{keyFair, "ShedLock has no fair lock"},
			{keyRetry, "ShedLock does not wait for a lock: a run that finds it taken is skipped"},
		},
	},
})

// leaseTurnsWatchdogOff is Redisson's rule: lock(leaseTime) with a lease
// of the caller's schedules no renewal, so a ttl written without a
// watchdog: block runs without one (the gotcha the seeds name).
func leaseTurnsWatchdogOff(l *Lock, wrote func(string) bool) {
	if wrote(dot(keyLock, keyTTL)) && !wrote(dot(keyLock, keyWatchdog)) {
		l.Watchdog = nil
	}
}

// redissonTune is leaseTurnsWatchdogOff, and a fair or fenced lock without
// the reentrant count (lockstep runs neither reentrant).
func redissonTune(l *Lock, wrote func(string) bool) {
	leaseTurnsWatchdogOff(l, wrote)
	if (l.Fair || l.Fencing == "token") && !wrote(dot(keyLock, keyReentrant)) {
		l.Reentrant = false
	}
}
