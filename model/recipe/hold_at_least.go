package recipe

import (
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/store"
)

// ShedLock's lockAtLeastFor (ClientKnobs.HoldAtLeast): a scheduled job that
// ends early keeps its lock until lockAtLeastFor after it was taken, so
// that another node's scheduler, a little late by its clock, skips the run
// instead of repeating it. InternalRedisLockProvider.RedisLock.doUnlock
// reads keepLockFor = lockAtLeastUntil − now (ClockProvider.now(): the
// client's wall clock; lockAtLeastUntil was fixed when lock() began) and,
// when it is positive, sets the key's expiry to it instead of deleting:
// with safeUpdate (lua-release here) by a script that checks the value
// first (updLuaScript: GET == value then PEXPIRE), without it (set-del,
// ShedLock's default) by setIfPresent, SET key value XX PX, which writes
// the value over whoever's key is there.

// keepFor is how much longer l's key must live after a release now: what
// is left of HoldAtLeast since the acquire began, by the client's wall
// clock; 0 or less: release as usual.
func (s *single) keepFor(t *model.Thread, l *model.Lease) time.Duration {
	if s.cfg.Knobs.HoldAtLeast <= 0 {
		return 0
	}
	return l.Start + s.cfg.Knobs.HoldAtLeast - t.Wall()
}

// keepRelease is the release that keeps the key for left: the PEXPIRE of
// updLuaScript under lua-release, setIfPresent's SET XX PX under set-del.
// ShedLock's PX is whole milliseconds (Duration.toMillis), at least 1 here
// so that a sub-millisecond remainder does not ask for PX 0.
func (s *single) keepRelease(t *model.Thread, n *model.Node, l *model.Lease, left time.Duration) {
	ms := msArg(max(left, time.Millisecond))
	if s.kind == model.StrategyLuaRelease {
		t.Call(n, model.OpRelease, "EVAL", store.ScriptRenew, "1", s.cfg.Key, l.Token, ms)
		return
	}
	t.Call(n, model.OpRelease, "SET", s.cfg.Key, l.Token, "XX", "PX", ms)
}
