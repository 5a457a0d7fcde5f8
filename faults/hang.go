package faults

import (
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// Hang stalls a client's work thread; its watchdog keeps running.
const Hang Kind = "hang"

var hangSpec = stopsAClient(Spec{
	Kind:     Hang,
	Doc:      "the client's work thread stalls; its watchdog keeps running",
	OnClient: hang,
	Refuse: func(node bool) string {
		if node {
			return "a hang stalls a client's work thread: tab to Clients and select one"
		}
		return ""
	},
	Prompt: &Prompt{
		Label: func(watchdog bool) string {
			if watchdog {
				return "hang %s's work thread (its watchdog runs on) for"
			}
			return "hang %s's work thread for"
		},
		Default: fixed("30s"),
		Parse:   positiveFor,
	},
})

func hang(w *model.World, c *model.Client, f Fault) {
	end := w.Now() + f.For
	if first, until := w.Cover(string(Hang), c.Name).Begin(end); !first {
		w.Tell(c.Name, "fault", "hang-nested", sim.I("for_ns", int64(f.For)), sim.I("until_ns", int64(max(until, end))))
	} else {
		c.Hang()
		w.Tell(c.Name, "fault", "hang", sim.I("for_ns", int64(f.For)))
	}
	w.K.After(f.For, func() {
		if last, until := w.Cover(string(Hang), c.Name).End(end); !last {
			w.Tell(c.Name, "fault-end", "hang-end-nested", sim.S("client", c.Name), sim.I("for_ns", int64(f.For)), sim.I("until_ns", int64(until)))
			return
		}
		c.Unhang()
		w.Tell(c.Name, "fault-end", "hang-end")
	})
}
