package model

import "github.com/lockstep-sim/lockstep/model/judge"

// Evict makes master n evict the lock key now, as memory pressure under
// its maxmemory-policy would (the evict fault), and tells the judge, whose
// grant on n then ends. It returns why not ("" when it evicted).
func (w *World) Evict(n *Node) string {
	if why := w.Cluster.Evict(n, w.Cfg.Lock.Key); why != "" {
		return why
	}
	w.feed(&judge.Event{Kind: judge.Evicted, Node: n.Name(), Note: w.Cfg.Nodes.MaxmemoryPolicy})
	return ""
}
