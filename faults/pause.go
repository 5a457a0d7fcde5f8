package faults

import (
	"fmt"

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
		Label:   func(t string, _ bool) string { return fmt.Sprintf("GC pause %s for", t) },
		Default: fixed("35s"),
		Parse:   positiveFor,
	},
})

// forDescribe is "KIND TARGET for DURATION".
func forDescribe(f Fault) string { return fmt.Sprintf("%s %s for %s", f.Kind, f.Target, f.For) }

func pause(w *model.World, c *model.Client, f Fault) {
	end := w.Now() + f.For
	if first, until := w.Cover(string(Pause), c.Name).Begin(end); !first {
		w.Emit(c.Name, "fault", "GC pause begins (%s) while %s is already paused: it stays paused until %s", f.For, c.Name, sim.FormatTime(max(until, end)))
	} else {
		c.Pause()
		w.Emit(c.Name, "fault", "GC pause begins (%s): every thread of %s stops", f.For, c.Name)
	}
	w.K.After(f.For, func() {
		if last, until := w.Cover(string(Pause), c.Name).End(end); !last {
			w.Emit(c.Name, "fault-end", "GC pause ends after %s; %s stays paused (another pause until %s)", f.For, c.Name, sim.FormatTime(until))
			return
		}
		c.Unpause()
		w.Emit(c.Name, "fault-end", "GC pause ends after %s", f.For)
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
