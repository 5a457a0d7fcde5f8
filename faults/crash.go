package faults

import (
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// Crash kills a client, or a node that optionally restarts.
const Crash Kind = "crash"

var crashSpec = Spec{
	Kind:    Crash,
	Doc:     "a client dies, or a node dies and optionally restarts",
	Fields:  []*Field{FieldTarget, FieldRestartAfter},
	Targets: all,
	Need:    needAll,
	Check: func(c Checker, f Fault, _ bool) {
		ra := FieldRestartAfter.Name
		if !c.Written(ra) && (c.FromFile() || f.RestartAfter == 0) {
			return
		}
		if !c.Names().IsNode(f.Target) {
			c.Errorf(ra, "%s.%s applies only to a node; a crashed client stays down", f.Kind, ra)
			return
		}
		c.Positive(ra, f.RestartAfter)
	},
	Describe: func(f Fault) []sim.Arg {
		if f.RestartAfter > 0 {
			return describe("fault-desc-restart", f, sim.I("fault_restart_ns", int64(f.RestartAfter)))
		}
		return targetDescribe(f)
	},
	OnClient: crashClient,
	OnNode:   crashNode,
	Generate: func(g *Gen) Fault {
		f := Fault{Target: g.Pick(g.Names.All())}
		if g.Names.IsNode(f.Target) && g.Coin() {
			f.RestartAfter = g.Long()
		}
		return f
	},
	Prompt: &Prompt{
		Label:    func(bool) string { return "crash %s; restart after (0s: stays down)" },
		Default:  fixed("0s"),
		NodeOnly: true,
		Parse: func(v string, _ []string, f *Fault) error {
			d, err := promptDuration(v)
			if err != nil {
				return err
			}
			if d < 0 {
				return refuse("restart after must not be negative")
			}
			f.RestartAfter = d
			return nil
		},
	},
}

func crashClient(w *model.World, c *model.Client, _ Fault) {
	if c.State() == model.StateCrashed {
		w.Tell(c.Name, "fault", "client-crashed-already", sim.S("client", c.Name))
		return
	}
	c.Crash()
	w.Tell(c.Name, "fault", "client-crashed", sim.S("client", c.Name))
}

// crashNode crashes n and schedules its restart, if any.
func crashNode(w *model.World, n *model.Node, f Fault) {
	if !crashNodeNow(w, n, f) || f.RestartAfter <= 0 {
		return
	}
	end := w.Now() + f.RestartAfter
	w.K.After(f.RestartAfter, func() {
		if last, until := w.Cover(string(Crash), n.Name()).End(end); !last {
			w.Tell(n.Name(), "fault-end", "node-restart-overlapped", sim.S("node", n.Name()), sim.I("after_ns", int64(f.RestartAfter)), sim.I("until_ns", int64(until)))
			return
		}
		if n.Up() {
			return
		}
		w.RestartNode(n)
		w.Tell(n.Name(), "restart", "node-restarted", restartArgs(w, n, f)...)
	})
}

// restartArgs are the node-restarted line's arguments: what the node came
// back with and, with restart_delay, the piece saying how long it answers
// -LOADING.
func restartArgs(w *model.World, n *model.Node, f Fault) []sim.Arg {
	now := w.Now()
	d := n.Config().RestartDelay
	loading := ""
	if d > 0 {
		loading = "restart-loading"
	}
	return []sim.Arg{sim.S("node", n.Name()), sim.I("after_ns", int64(f.RestartAfter)), sim.I("keys", int64(len(n.Keys(now)))),
		sim.S("persistence", persistence(n)), sim.S("loading", loading), sim.I("loading_until_ns", int64(now+d)), sim.I("delay_ns", int64(d))}
}

// crashNodeNow crashes n, or, when n is already down, only counts the crash
// (its restart, if any, comes no earlier than the others'). It reports
// whether the crash is on (false: skipped).
func crashNodeNow(w *model.World, n *model.Node, f Fault) bool {
	end := model.Forever
	if f.RestartAfter > 0 {
		end = w.Now() + f.RestartAfter
	}
	cov := w.Cover(string(Crash), n.Name())
	if !n.Up() && !cov.On() {
		w.Tell(n.Name(), "skipped", "fault-node-down", desc(f, sim.S("node", n.Name()))...)
		return false
	}
	if first, until := cov.Begin(end); !first {
		w.Tell(n.Name(), "fault", "node-crashed-already", sim.S("node", n.Name()), sim.I("until_ns", int64(max(until, end))))
		return true
	}
	w.Say(n.Name(), "fault", "node-crashed", []sim.Arg{sim.S("node", n.Name()), sim.S("persistence", persistence(n))}, "%s crashes (persistence %s)", n.Name(), persistence(n))
	w.CrashNode(n)
	return true
}
