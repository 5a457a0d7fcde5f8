package recipe

import "github.com/lockstep-sim/lockstep/model"

// V3 of the seeds and everything after: one atomic SET with NX and PX. The
// set-del strategy releases with the blind DEL (delRelease); lua-release
// with a check-and-delete script (lua_release.go).

func setPXAcquire(s *single, t *model.Thread, n *model.Node, l *model.Lease) bool {
	r, err := t.Call(n, model.OpAcquire, "SET", s.cfg.Key, l.Token, "NX", "PX", s.ttlArg())
	return err == nil && r != nil
}
