package faults

import (
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// Pause is a stop-the-world pause of a client process (GC): every thread,
// watchdog included.
const Pause Kind = "pause"

var pauseSpec = stopsAClient(Spec{
	Kind:     Pause,
	Doc:      "stop-the-world pause of a client process (GC): every thread, watchdog included",
	OnClient: pause,
	Refuse: func(node bool) string {
		if node {
			return "a GC pause stops a client: tab to Clients and select one"
		}
		return ""
	},
	Prompt: &Prompt{
		Label:   func(bool) string { return "GC pause %s for" },
		Default: fixed("35s"),
		Parse:   positiveFor,
	},
})

func pause(w *model.World, c *model.Client, f Fault) {
	end := w.Now() + f.For
	if first, until := w.Cover(string(Pause), c.Name).Begin(end); !first {
		w.Tell(c.Name, "fault", "pause-nested", sim.S("client", c.Name), sim.I("for_ns", int64(f.For)), sim.I("until_ns", int64(max(until, end))))
	} else {
		c.Pause()
		w.Tell(c.Name, "fault", "pause", sim.S("client", c.Name), sim.I("for_ns", int64(f.For)))
	}
	w.K.After(f.For, func() {
		if last, until := w.Cover(string(Pause), c.Name).End(end); !last {
			w.Tell(c.Name, "fault-end", "pause-end-nested", sim.S("client", c.Name), sim.I("for_ns", int64(f.For)), sim.I("until_ns", int64(until)))
			return
		}
		c.Unpause()
		w.Tell(c.Name, "fault-end", "pause-end", sim.I("for_ns", int64(f.For)))
	})
}

// stopsAClient completes the spec of a fault that stops a client, or a part
// of it, for a while (pause, hang): a client target, a duration, drawn and
// described alike.
func stopsAClient(s Spec) Spec {
	s.Fields = []*Field{FieldTarget, FieldFor}
	s.Targets = clients
	s.Need = "a client (it stops a client process)"
	s.Check = func(c Checker, f Fault, _ bool) { requireFor(c, f) }
	s.Describe = forDescribe
	s.Generate = func(g *Gen) Fault {
		return Fault{Target: g.Pick(g.Names.Clients), For: g.Long()}
	}
	return s
}
