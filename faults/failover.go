package faults

import (
	"errors"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/redis"
	"github.com/lockstep-sim/lockstep/sim"
)

// Failover promotes a master's first replica; unreplicated writes are lost.
const Failover Kind = "failover"

var failoverSpec = Spec{
	Kind:    Failover,
	Doc:     "promote a master's first replica; unreplicated writes are lost",
	Fields:  []*Field{FieldTarget},
	Targets: masters,
	Need:    "a master node redis-1..redis-N",
	Check: func(c Checker, f Fault, targetOK bool) {
		if targetOK && len(c.Names().Replicas) == 0 {
			c.Errorf(FieldTarget.Name, "%s of %s needs a replica to promote: set redis.replicas to 1 or more", f.Kind, f.Target)
		}
	},
	Describe: targetDescribe,
	OnNode:   failover,
	Generate: func(g *Gen) Fault { return Fault{Target: g.Pick(g.Names.Masters)} },
	Refuse: func(node bool) string {
		if !node {
			return "failover promotes a master's replica: tab to Nodes and select a master"
		}
		return ""
	},
}

func failover(w *model.World, n *model.Node, f Fault) {
	i := -1
	for _, sh := range w.Shards {
		if sh.Master == n {
			i = sh.Index
		}
	}
	if i < 0 {
		w.Tell(n.Name(), "skipped", "fault-not-master", desc(f, sim.S("node", n.Name()))...)
		return
	}
	w.Tell(n.Name(), "fault", "failover", sim.S("fault", string(f.Kind)), sim.S("node", n.Name()))
	if _, err := w.Failover(i); err != nil {
		// named by its kind alone: the line above named the node
		kind := []sim.Arg{sim.S("fault", "fault-desc-kind"), sim.S("fault_kind", string(f.Kind))}
		var ref *redis.FailoverRefusal
		if errors.As(err, &ref) {
			w.Tell(n.Name(), "skipped", "failover-refused", append(kind, sim.S("why", ref.ID()), sim.S("node", ref.Master))...)
			return
		}
		w.Tell(n.Name(), "skipped", "fault-refused", append(kind, sim.S("why", err.Error()))...)
	}
}
