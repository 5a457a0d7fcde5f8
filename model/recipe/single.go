package recipe

import "github.com/lockstep-sim/lockstep/model"

// single is the single-instance family of the seeds, from the naive V1 to
// the Lua-released lock, with the reentrant, fair and fencing variants. It
// is a composition: how a lock is taken, given back and extended are steps
// picked from the table below by strategy and variant, one recipe per file
// (setnx_del.go, setnx_expire.go, set_del.go, lua_release.go, reentrant.go,
// fair.go, fenced.go).
type single struct {
	cfg     model.LockConfig
	kind    string
	ttl     string // cfg.TTL as a command argument, formatted once (see ttlArg)
	acquire acquireStep
	release releaseStep
	renew   string    // the check-and-PEXPIRE script the watchdog runs
	setArgs [6]string // the SET NX PX of an acquire, filled for each (setPXArgs)
}

type (
	acquireStep func(s *single, t *model.Thread, n *model.Node, l *model.Lease) bool
	releaseStep func(s *single, t *model.Thread, n *model.Node, l *model.Lease)
)

// variant is what a design adds to its strategy's recipe.
type variant int

const (
	plain variant = iota
	reentrant
	fair
	fenced // fencing: token
	// reentrantFenced is reentrant with fencing: token, Redisson's
	// FencedLock: every acquisition, re-entries included, draws a token.
	reentrantFenced
	nVariants
)

// variantOf is the design's variant. The three are separate scripts and
// scenario/design.go (the one place that decides which designs are legal)
// refuses any two together but reentrant with fencing: token (Redisson's
// FencedLock); a Config built in code that sets others gets the first of
// reentrant, fair, fenced.
func variantOf(c model.LockConfig) variant {
	switch {
	case c.Reentrant && c.Fencing == "token":
		return reentrantFenced
	case c.Reentrant:
		return reentrant
	case c.Fair:
		return fair
	case c.Fencing == "token":
		return fenced
	}
	return plain
}

// singleRecipe is one strategy's steps, per variant.
type singleRecipe struct {
	acquire [nVariants]acquireStep
	release [nVariants]releaseStep
}

// every is the same step for every variant: the naive strategies store a
// placeholder, so no variant changes how they take or give back the lock.
func every[S any](s S) (out [nVariants]S) {
	for i := range out {
		out[i] = s
	}
	return out
}

// variantAcquire is how a strategy that stores its token takes the lock
// under each variant.
var variantAcquire = [nVariants]acquireStep{plain: setPXAcquire, reentrant: reentrantAcquire, fair: fairAcquire, fenced: fencedAcquire,
	reentrantFenced: reentrantFencedAcquire}

// singleRecipes is strategy × variant: which acquire and release run.
var singleRecipes = map[string]singleRecipe{
	model.StrategySetnxDel:    {acquire: every[acquireStep](setnxAcquire), release: every[releaseStep](delRelease)},
	model.StrategySetnxExpire: {acquire: every[acquireStep](setnxExpireAcquire), release: every[releaseStep](delRelease)},
	model.StrategySetDel:      {acquire: variantAcquire, release: every[releaseStep](delRelease)},
	model.StrategyLuaRelease: {acquire: variantAcquire, release: [nVariants]releaseStep{
		plain: scriptRelease, reentrant: reentrantRelease, fair: scriptRelease, fenced: scriptRelease, reentrantFenced: reentrantRelease}},
}

// renewScripts is the watchdog's script per variant: only a reentrant lock
// keeps its owner in a hash.
var renewScripts = [nVariants]string{plain: renewScript, reentrant: reentrantRenewScript, fair: renewScript, fenced: renewScript,
	reentrantFenced: reentrantRenewScript}

func newSingle(c model.LockConfig) model.Strategy {
	r, v := singleRecipes[c.Strategy], variantOf(c)
	s := &single{cfg: c, kind: c.Strategy, acquire: r.acquire[v], release: r.release[v], renew: renewScripts[v]}
	if c.Knobs.Regrant && v == plain && (c.Strategy == model.StrategySetDel || c.Strategy == model.StrategyLuaRelease) {
		s.acquire = regrantAcquire // SET NX PX that also re-grants our own key (regrant.go)
	}
	return s
}

// ttlArg is the lock's TTL in milliseconds as a command argument.
func (s *single) ttlArg() string {
	if s.ttl == "" {
		s.ttl = msArg(s.cfg.TTL)
	}
	return s.ttl
}

func (s *single) Name() string                           { return s.kind }
func (s *single) Quorum(*model.World) int                { return 1 }
func (s *single) LockNodes(w *model.World) []*model.Node { return []*model.Node{w.Shards[0].Master} }

func (s *single) node(t *model.Thread) *model.Node { return t.Master(0) }

// Acquire is one attempt, as the strategy's recipe writes it.
func (s *single) Acquire(t *model.Thread, l *model.Lease) bool {
	n := s.node(t)
	l.Nodes = append(l.Nodes[:0], n) // a retried lease's storage (Client.retry)
	l.Until = l.Start + s.cfg.TTL
	return s.acquire(s, t, n, l) && s.waitReplicas(t, n, l)
}

// Release gives the lock back, as the strategy's recipe writes it; with
// ShedLock's lockAtLeastFor, one that comes too soon keeps the key for
// what is left of it (hold_at_least.go).
func (s *single) Release(t *model.Thread, l *model.Lease) {
	if left := s.keepFor(t, l); left > 0 {
		s.keepRelease(t, s.node(t), l, left)
		return
	}
	s.release(s, t, s.node(t), l)
}
