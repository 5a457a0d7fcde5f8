package recipe

import (
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/store"
)

// fencing: token on one node: the acquire script also INCRs a counter, and
// the lease carries its value to the resource (model/resource).

func fencedAcquire(s *single, t *model.Thread, n *model.Node, l *model.Lease) bool {
	key := s.cfg.Key
	r, err := t.Call(n, model.OpAcquire, "EVAL", store.ScriptFencedAcquire, "2", key, key+":fence", l.Token, s.ttlArg())
	f, ok := r.(int)
	if err != nil || !ok {
		return false
	}
	l.Fence = int64(f)
	return true
}

// reentrantFencedAcquire is Redisson's FencedLock: reentrant, and every
// acquisition, a re-entry included, INCRs the token counter inside the
// acquire script (RedissonFencedLock.tryLockInnerAsync), so a hold with
// two re-entries uses three tokens. The re-entry's token is the one the
// holder writes with (Client.reenter keeps the newest).
func reentrantFencedAcquire(s *single, t *model.Thread, n *model.Node, l *model.Lease) bool {
	key := s.cfg.Key
	r, err := t.Call(n, model.OpAcquire, "EVAL", store.ScriptReentrantFencedAcquire, "2", key, key+":fence", l.Token, s.ttlArg())
	f, ok := r.(int)
	if err != nil || !ok {
		return false
	}
	l.Fence = int64(f)
	return true
}
