package store

import "github.com/lockstep-sim/lockstep/model/store/fastpath"

// The Lua scripts the strategies send, as the model names them. Each is
// written once, beside its Go twin, in package fastpath (scripts.go there
// has the sources and where they come from); they run through miniredis's
// real Lua engine whenever the fast path is off or declines, exactly as a
// client library would send them to Redis.
const (
	ScriptRelease                = fastpath.ScriptRelease                // compare-and-delete
	ScriptRenew                  = fastpath.ScriptRenew                  // compare-and-PEXPIRE (the watchdog)
	ScriptTouchOrSet             = fastpath.ScriptTouchOrSet             // redsync's touch, or SET NX PX where gone
	ScriptFencedAcquire          = fastpath.ScriptFencedAcquire          // SET NX PX, then INCR the fence
	ScriptReentrantAcquire       = fastpath.ScriptReentrantAcquire       // a hash of holder and count
	ScriptReentrantRelease       = fastpath.ScriptReentrantRelease       // decrement, delete at zero
	ScriptReentrantRenew         = fastpath.ScriptReentrantRenew         // extend a reentrant lock held by us
	ScriptFairAcquire            = fastpath.ScriptFairAcquire            // Redisson's FairLock style FIFO
	ScriptReentrantFencedAcquire = fastpath.ScriptReentrantFencedAcquire // Redisson's FencedLock
	ScriptRegrantAcquire         = fastpath.ScriptRegrantAcquire         // SET NX, or re-grant our own key
	ScriptRedsyncDelete          = fastpath.ScriptRedsyncDelete          // redsync v4.18.1's deleteScript
	ScriptRedsyncTouch           = fastpath.ScriptRedsyncTouch           // redsync v4.18.1's touchScript
	ScriptRedsyncTouchSetNX      = fastpath.ScriptRedsyncTouchSetNX      // redsync v4.18.1's touchWithSetNXScript
	ScriptRedislockRelease       = fastpath.ScriptRedislockRelease       // bsm/redislock v0.9.4's luaRelease
	ScriptRedislockRefresh       = fastpath.ScriptRedislockRefresh       // bsm/redislock v0.9.4's luaRefresh
	ScriptRedislockObtain        = fastpath.ScriptRedislockObtain        // bsm/redislock v0.9.4's luaObtain
)

// ScriptName names one of the project's scripts in the trace instead of
// printing its body: "<release>"; "<script>" for any other source.
func ScriptName(src string) string { return fastpath.ScriptName(src) }
