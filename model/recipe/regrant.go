package recipe

import (
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/store"
)

// regrantAcquire is bsm/redislock's obtain (lock.regrant): SET NX PX in a
// script that also grants, renewing the TTL, when the key already holds
// our token. A resent acquire (lock.driver) is then granted where plain
// SET NX answers nil on the key its first send took.
func regrantAcquire(s *single, t *model.Thread, n *model.Node, l *model.Lease) bool {
	r, err := t.Call(n, model.OpAcquire, "EVAL", store.ScriptRegrantAcquire, "1", s.cfg.Key, l.Token, s.ttlArg())
	return err == nil && r == 1
}
