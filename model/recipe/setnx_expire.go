package recipe

import "github.com/lockstep-sim/lockstep/model"

// V2 of the seeds: SETNX then EXPIRE, two round trips; a crash between them
// leaves a key without TTL. Released with the blind DEL (delRelease).

func setnxExpireAcquire(s *single, t *model.Thread, n *model.Node, l *model.Lease) bool {
	key := s.cfg.Key
	r, err := t.Call(n, model.OpAcquire, "SETNX", key, l.Token)
	if err != nil || r != 1 {
		return false
	}
	t.Call(n, model.OpRenew, "PEXPIRE", key, s.ttlArg())
	return true
}
