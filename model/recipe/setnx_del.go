package recipe

import "github.com/lockstep-sim/lockstep/model"

// V1 of the seeds: SETNX to take the lock, DEL to give it back. The key
// never expires, so a crashed holder's lock is never released.

func setnxAcquire(s *single, t *model.Thread, n *model.Node, l *model.Lease) bool {
	r, err := t.Call(n, model.OpAcquire, "SETNX", s.cfg.Key, l.Token)
	l.Until = -1
	return err == nil && r == 1
}

// delRelease is the blind DEL of V1 to V3: it deletes whoever's key is
// there, another client's too.
func delRelease(s *single, t *model.Thread, n *model.Node, _ *model.Lease) {
	t.Call(n, model.OpRelease, "DEL", s.cfg.Key)
}
