package faults

import (
	"fmt"

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
		Label: func(t string, watchdog bool) string {
			if watchdog {
				return fmt.Sprintf("hang %s's work thread (its watchdog runs on) for", t)
			}
			return fmt.Sprintf("hang %s's work thread for", t)
		},
		Default: fixed("30s"),
		Parse:   positiveFor,
	},
})

func hang(w *model.World, c *model.Client, f Fault) {
	end := w.Now() + f.For
	if first, until := w.Cover(string(Hang), c.Name).Begin(end); !first {
		w.Emit(c.Name, "fault", "work thread hangs for %s while already hung: it stays hung until %s", f.For, sim.FormatTime(max(until, end)))
	} else {
		c.Hang()
		w.Emit(c.Name, "fault", "work thread hangs for %s (watchdog keeps running)", f.For)
	}
	w.K.After(f.For, func() {
		if last, until := w.Cover(string(Hang), c.Name).End(end); !last {
			w.Emit(c.Name, "fault-end", "a hang of %s ends after %s; the work thread stays hung (another hang until %s)", c.Name, f.For, sim.FormatTime(until))
			return
		}
		c.Unhang()
		w.Emit(c.Name, "fault-end", "work thread resumes")
	})
}
