package recipe

import (
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/store"
)

// The reentrant lock (Redisson's RLock): a hash of holder and count, so the
// holder can take it again inside its own hold; each release counts down and
// the last one deletes the key.

func reentrantAcquire(s *single, t *model.Thread, n *model.Node, l *model.Lease) bool {
	r, err := t.Call(n, model.OpAcquire, "EVAL", store.ScriptReentrantAcquire, "1", s.cfg.Key, l.Token, s.ttlArg())
	return err == nil && r == 1
}

func reentrantRelease(s *single, t *model.Thread, n *model.Node, l *model.Lease) {
	t.Call(n, model.OpRelease, "EVAL", store.ScriptReentrantRelease, "1", s.cfg.Key, l.Token)
}
