package recipe

import (
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/store"
)

// The fair lock (Redisson's RedissonFairLock): waiters queue in a list with
// a timeout each, and only the head of the queue may take the lock.

func fairAcquire(s *single, t *model.Thread, n *model.Node, l *model.Lease) bool {
	key := s.cfg.Key
	r, err := t.Call(n, model.OpAcquire, "EVAL", store.ScriptFairAcquire, "3", key, key+":queue", key+":timeouts",
		l.Token, s.ttlArg(), msArg(t.Wall()+fairEpoch), msArg(s.placeTimeout()))
	return err == nil && r == 1
}

// fairEpoch puts the fair lock's client timestamps in a plausible range of
// Unix milliseconds; only differences matter.
const fairEpoch = 1_767_225_600 * time.Second // 2026-01-01T00:00:00Z

// placeTimeout is how long a fair-lock waiter keeps its place without
// retrying: Redisson uses 5 s; longer when the retry delays are longer.
// lock.fair_timeout sets it instead (Redisson's fairLockWaitTimeout: 5 s
// before 3.13.3, RedissonFairLock's threadWaitTime = 5000; 5 min since,
// config/Config.java fairLockWaitTimeout = 5 * 60000).
func (s *single) placeTimeout() time.Duration {
	if d := s.cfg.Knobs.FairTimeout; d > 0 {
		return d
	}
	d := 5 * time.Second
	if r := s.cfg.Retry; r != nil && 3*r.MaxDelay > d {
		d = 3 * r.MaxDelay
	}
	if r := s.cfg.Retry; r != nil && 3*r.Delay > d {
		d = 3 * r.Delay
	}
	return d
}
