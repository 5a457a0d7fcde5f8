package model

// V3 of the seeds and everything after: one atomic SET with NX and PX. The
// set-del strategy releases with the blind DEL (delRelease); lua-release
// with a check-and-delete script (lua_release.go).

func setPXAcquire(s *single, t *Thread, n *Node, l *Lease) bool {
	r, err := t.Call(n, OpAcquire, "SET", s.cfg.Key, l.Token, "NX", "PX", s.ttlArg())
	return err == nil && r != nil
}
