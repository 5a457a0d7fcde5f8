package faults

import (
	"github.com/lockstep-sim/lockstep/model"
)

// Evict makes a master evict the lock key, as memory pressure would.
const Evict Kind = "evict"

var evictSpec = Spec{
	Kind:    Evict,
	Doc:     "a master evicts the lock key as memory pressure under its maxmemory-policy would",
	Fields:  []*Field{FieldTarget},
	Targets: masters,
	Need:    "a master node redis-1..redis-N",
	// Whether the policy lets the key go is the scenario's business
	// (redis.maxmemory_policy, checked where the file is validated) and,
	// for a key that has no TTL at that moment, the node's when it strikes.
	Check:    func(Checker, Fault, bool) {},
	Describe: targetDescribe,
	OnNode:   evict,
	Generate: func(g *Gen) Fault { return Fault{Target: g.Pick(g.Names.Masters)} },
	Refuse: func(node bool) string {
		if !node {
			return "evict makes a node drop the lock key: tab to Nodes and select a master"
		}
		return ""
	},
}

func evict(w *model.World, n *model.Node, f Fault) {
	if why := w.Evict(n); why != nil {
		w.Tell(n.Name(), "skipped", "evict-refused", desc(f, why...)...)
	}
}
