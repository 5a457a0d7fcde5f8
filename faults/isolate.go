package faults

import (
	"fmt"

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
		Label:   func(t string, _ bool) string { return fmt.Sprintf("%s %s for", Isolate, t) },
		Default: fixed("10s"),
		Parse:   positiveFor,
	},
}

func isolate(w *model.World, f Fault) {
	end := w.Now() + f.For
	if first, until := w.Cover(string(Isolate), f.Target).Begin(end); !first {
		w.Emit(f.Target, "fault", "%s is cut off from everyone for %s while already cut off: it stays cut off until %s", f.Target, f.For, sim.FormatTime(max(until, end)))
	} else {
		w.Emit(f.Target, "fault", "%s is cut off from everyone for %s", f.Target, f.For)
	}
	id := w.Net.Isolate(f.Target)
	w.K.After(f.For, func() {
		if last, until := w.Cover(string(Isolate), f.Target).End(end); !last {
			w.Emit(f.Target, "heal", "an isolation of %s ends after %s; it stays cut off (another isolation until %s)", f.Target, f.For, sim.FormatTime(until))
		} else {
			w.Emit(f.Target, "heal", "%s reconnected", f.Target)
		}
		w.Net.Heal(id)
	})
}
