package model

import (
	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/sim"
)

// Evict makes master n evict the lock key now, as memory pressure under
// its maxmemory-policy would (the evict fault), and tells the judge, whose
// grant on n then ends. It returns why not as the arguments of its piece
// of the trace's catalogue (redis.Cluster.EvictWhy), nil when it evicted.
func (w *World) Evict(n *Node) []sim.Arg {
	if why := w.Cluster.EvictWhy(n, w.Cfg.Lock.Key); why != nil {
		return why
	}
	w.feed(&judge.Event{Kind: judge.Evicted, Node: n.Name(), Note: w.Cfg.Nodes.MaxmemoryPolicy})
	return nil
}
