package recipe

import (
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/store"
)

// The Lua-released lock of redis.io: taken with SET NX PX (set_del.go),
// given back only if the key still holds our token, extended by the
// watchdog only on the same condition.

// The check-and-PEXPIRE scripts the watchdog runs (see renewScripts).
const (
	renewScript          = store.ScriptRenew
	reentrantRenewScript = store.ScriptReentrantRenew
)

// scriptRelease is "if GET key == token then DEL key".
func scriptRelease(s *single, t *model.Thread, n *model.Node, l *model.Lease) {
	t.Call(n, model.OpRelease, "EVAL", store.ScriptRelease, "1", s.cfg.Key, l.Token)
}

// Renew is the watchdog's check-and-PEXPIRE; the lease runs from before it
// was sent.
func (s *single) Renew(t *model.Thread, l *model.Lease) bool {
	n, start := s.node(t), t.Wall()
	r, err := t.Call(n, model.OpRenew, "EVAL", s.renew, "1", s.cfg.Key, l.Token, s.ttlArg())
	if err != nil || r != 1 {
		return false
	}
	l.Until = start + s.cfg.TTL
	return true
}
