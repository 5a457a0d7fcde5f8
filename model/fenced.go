package model

import "github.com/lockstep-sim/lockstep/model/store"

// fencing: token on one node: the acquire script also INCRs a counter, and
// the lease carries its value to the resource (resource.go).

func fencedAcquire(s *single, t *Thread, n *Node, l *Lease) bool {
	key := s.cfg.Key
	r, err := t.Call(n, OpAcquire, "EVAL", store.ScriptFencedAcquire, "2", key, key+":fence", l.Token, s.ttlArg())
	f, ok := r.(int)
	if err != nil || !ok {
		return false
	}
	l.Fence = int64(f)
	return true
}
