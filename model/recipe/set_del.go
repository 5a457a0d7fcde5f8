package recipe

import "github.com/lockstep-sim/lockstep/model"

// V3 of the seeds and everything after: one atomic SET with NX and PX. The
// set-del strategy releases with the blind DEL (delRelease); lua-release
// with a check-and-delete script (lua_release.go).

func setPXAcquire(s *single, t *model.Thread, n *model.Node, l *model.Lease) bool {
	r, err := t.Call(n, model.OpAcquire, s.setPXArgs(l.Token)...)
	return err == nil && r != nil
}

// setPXArgs is SET key token NX PX ttl, in the strategy's own storage
// rather than in an array in setPXAcquire's frame: every acquire sends it
// from the deepest frames of a hold, on a client's coroutine stack, which
// is copied to one twice the size when it outgrows its first 2 KB. Call
// copies its arguments before it waits, so the next client to fill them
// cannot change a command already sent.
func (s *single) setPXArgs(token string) []string {
	if s.setArgs[0] == "" {
		s.fillSetPX()
	}
	s.setArgs[2] = token
	return s.setArgs[:]
}

// fillSetPX writes the SET NX PX's words that every acquire shares.
func (s *single) fillSetPX() {
	a := &s.setArgs
	a[0], a[1], a[3], a[4], a[5] = "SET", s.cfg.Key, "NX", "PX", s.ttlArg()
}
