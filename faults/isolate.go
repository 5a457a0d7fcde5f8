package faults

import (
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// Isolate cuts one process off from everyone for a while.
const Isolate Kind = "isolate"

var isolateSpec = Spec{
	Kind:    Isolate,
	Doc:     "cut one process off from everyone for `for`",
	Fields:  []*Field{FieldTarget, FieldFor},
	Targets: net,
	Check: func(c Checker, f Fault, _ bool) {
		requireFor(c, f)
	},
	Describe:   forDescribe,
	OnClient:   netClient(isolate),
	OnNode:     netNode(isolate),
	OnSentinel: isolate,
	Generate: func(g *Gen) Fault {
		return Fault{Target: g.Pick(g.Names.Net()), For: g.Long()}
	},
	Prompt: &Prompt{
		Label:   func(bool) string { return string(Isolate) + " %s for" },
		Default: fixed("10s"),
		Parse:   positiveFor,
	},
}

func isolate(w *model.World, f Fault) {
	end := w.Now() + f.For
	if first, until := w.Cover(string(Isolate), f.Target).Begin(end); !first {
		w.Tell(f.Target, "fault", "isolate-nested", sim.S("target", f.Target), sim.I("for_ns", int64(f.For)), sim.I("until_ns", int64(max(until, end))))
	} else {
		w.Tell(f.Target, "fault", "isolate", sim.S("target", f.Target), sim.I("for_ns", int64(f.For)))
	}
	id := w.Net.Isolate(f.Target)
	w.K.After(f.For, func() {
		if last, until := w.Cover(string(Isolate), f.Target).End(end); !last {
			w.Tell(f.Target, "heal", "isolate-end-nested", sim.S("target", f.Target), sim.I("for_ns", int64(f.For)), sim.I("until_ns", int64(until)))
		} else {
			w.Tell(f.Target, "heal", "isolate-end", sim.S("target", f.Target))
		}
		w.Net.Heal(id)
	})
}
