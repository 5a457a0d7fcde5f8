// Package recipe is the single-instance lock recipes of the seeds, from
// the naive SETNX + DEL (V1) to the Lua-released lock with its reentrant,
// fair and fencing variants, bsm/redislock's re-grant, ShedLock's
// lockAtLeastFor, WAIT after a grant, and the holds that need several keys.
// single.go composes them: a strategy × variant table says which acquire
// and release run.
//
// Each recipe is a model.Strategy written against the recipe API of
// package model (Thread's Call, Wait, sleeps and clocks, the trace, the
// lease) and registers itself with model.RegisterStrategy when linked;
// scenario/build.go links it. Which designs are legal is decided in
// scenario/design.go, not here.
package recipe

import (
	"strconv"
	"time"

	"github.com/lockstep-sim/lockstep/model"
)

func init() {
	for _, st := range []string{model.StrategySetnxDel, model.StrategySetnxExpire, model.StrategySetDel} {
		model.RegisterStrategy(st, newSingle)
	}
	model.RegisterStrategy(model.StrategyLuaRelease, newLuaRelease)
}

// newLuaRelease is the Lua-released lock, or with several keys per hold
// (LockConfig.Keys) the multi-key one (multikey.go).
func newLuaRelease(c model.LockConfig) model.Strategy {
	if len(c.Keys) > 0 {
		return newMultiKey(c)
	}
	return newSingle(c)
}

// msArg is d in whole milliseconds, as a command argument.
func msArg(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }
