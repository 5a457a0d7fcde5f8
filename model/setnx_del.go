package model

// V1 of the seeds: SETNX to take the lock, DEL to give it back. The key
// never expires, so a crashed holder's lock is never released.

func setnxAcquire(s *single, t *Thread, n *Node, l *Lease) bool {
	r, err := t.Call(n, OpAcquire, "SETNX", s.cfg.Key, l.Token)
	l.Until = -1
	return err == nil && r == 1
}

// delRelease is the blind DEL of V1 to V3: it deletes whoever's key is
// there, another client's too.
func delRelease(s *single, t *Thread, n *Node, _ *Lease) {
	t.Call(n, OpRelease, "DEL", s.cfg.Key)
}
