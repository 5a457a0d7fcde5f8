package scenario

import (
	"slices"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/redis"
)

// The Redis-side mitigations of issue 13: min-replicas-to-write on the
// masters, WAIT after a grant on the client.

// WaitReplicas is lock.wait_replicas: after a grant the client sends WAIT
// replicas timeout and, with fewer acks, releases the lock and counts the
// attempt as failed (Redisson's synced-slaves check).
type WaitReplicas struct {
	Replicas int
	Timeout  time.Duration
}

// singleStrategies are the single-instance strategies, whose acquire
// (model/recipe/single.go) runs the WAIT step.
var singleStrategies = []string{model.StrategySetnxDel, model.StrategySetnxExpire, model.StrategySetDel, model.StrategyLuaRelease}

// defaultWaitTimeout is Redisson's slavesSyncTimeout default (1000 ms).
const defaultWaitTimeout = time.Second

var waitReplicasSection = newSection(keyWaitReplicas, keyWaitReplicas+".",
	field[WaitReplicas]{name: keyReplicas, doc: "replicas that must acknowledge the grant, >= 1",
		val: func(w *WaitReplicas) any { return &w.Replicas }},
	field[WaitReplicas]{name: keyTimeout, doc: "WAIT's timeout, whole milliseconds; default 1s",
		val: func(w *WaitReplicas) any { return &w.Timeout }},
)

func readWaitReplicas(p *parser, e entry, l *Lock, path string, pt posTable) {
	l.WaitReplicas = &WaitReplicas{Timeout: defaultWaitTimeout}
	readSection(p, e.V, waitReplicasSection, l.WaitReplicas, path, pt)
}

// redisSide checks redis.min_replicas_to_write and min_replicas_max_lag.
func (c *checker) redisSide() {
	r := c.s.Redis
	at := func(key string) string { return dot(keyRedis, key) }
	min, lag, reps := at(keyMinReplicasToWrite), at(keyMinReplicasMaxLag), at(keyReplicas)
	if r.MinReplicasToWrite < 0 || r.MinReplicasToWrite > r.Replicas {
		c.errorf(min, "%s must be between 0 and %s (%d): a master cannot count more replicas than it has (got %d)",
			min, reps, r.Replicas, r.MinReplicasToWrite)
	}
	if !c.given(lag) || c.pt == nil && r.MinReplicasMaxLag == 0 {
		return
	}
	switch {
	case r.MinReplicasToWrite == 0:
		c.errorf(lag, "%s has no effect without %s (set it to 1 or more)", lag, min)
	case r.MinReplicasMaxLag < time.Second || r.MinReplicasMaxLag > MaxDuration || r.MinReplicasMaxLag%time.Second != 0:
		c.errorf(lag, "%s must be a whole number of seconds from 1s to %s: Redis counts it in seconds (got %s)",
			lag, fmtDur(MaxDuration), fmtDur(r.MinReplicasMaxLag))
	}
}

// eviction checks redis.maxmemory_policy. An evict fault that the policy
// forbids is not an error of the file: like a fault injected live, it is
// refused when it strikes, with the reason in the trace ("skipped"), so
// that a run exported with such a fault loads again.
func (c *checker) eviction() {
	pol := dot(keyRedis, keyMaxmemoryPolicy)
	if p := c.s.Redis.MaxmemoryPolicy; p != "" {
		c.oneOf(pol, pol, p, redis.MaxmemoryPolicies)
	}
	if v := c.s.Redis.Version; v != 0 && !slices.Contains(redis.Versions, v) {
		ver := dot(keyRedis, keyVersion)
		c.errorf(ver, "unknown %s %d (allowed: 6, 7: the Redis major version, which decides how expiries reach replicas)", ver, v)
	}
}

// waitReplicas checks lock.wait_replicas.
func (c *checker) waitReplicas() {
	w := c.s.Lock.WaitReplicas
	if w == nil {
		return
	}
	path := dot(keyLock, keyWaitReplicas)
	reps, to := dot(path, keyReplicas), dot(path, keyTimeout)
	name := dot(keyWaitReplicas, keyReplicas)
	// Which strategies can run it is design.go's table (singleStrategies).
	switch n := c.s.Redis.Replicas; {
	case n == 0:
		c.errorf(reps, "%s needs replicas to wait for: redis.%s is 0", keyWaitReplicas, keyReplicas)
	case w.Replicas < 1 || w.Replicas > n:
		c.errorf(reps, "%s must be between 1 and redis.%s (%d) (got %d)", name, keyReplicas, n, w.Replicas)
	}
	tn := dot(keyWaitReplicas, keyTimeout)
	switch {
	case w.Timeout <= 0 || w.Timeout > MaxDuration:
		c.errorf(to, "%s must be greater than 0 and at most %s (got %s)", tn, fmtDur(MaxDuration), fmtDur(w.Timeout))
	case w.Timeout%time.Millisecond != 0:
		c.errorf(to, "%s must be a whole number of milliseconds: WAIT counts milliseconds (got %s)", tn, fmtDur(w.Timeout))
	}
}
