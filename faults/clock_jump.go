package faults

import (
	"time"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// ClockJump steps a node's or client's wall clock by By.
const ClockJump Kind = "clock_jump"

// maxJump bounds a clock jump either way (the format's longest duration).
const maxJump = 24 * time.Hour

var clockJumpSpec = Spec{
	Kind:    ClockJump,
	Doc:     "a node's or client's wall clock steps by `by`",
	Fields:  []*Field{FieldTarget, FieldBy},
	Targets: all,
	Need:    needAll,
	Check: func(c Checker, f Fault, _ bool) {
		by := FieldBy.Name
		if !c.Required(by, i18n.M("%s.%s (how far the clock steps, e.g. %s: 20s or %s: -5s)", f.Kind, by, by, by)) {
			return
		}
		switch {
		case f.By == 0:
			c.Errorf(by, "%s.%s must not be 0 (a jump of nothing)", f.Kind, by)
		case f.By < -maxJump || f.By > maxJump:
			c.Errorf(by, "%s.%s must be between -24h and 24h (got %s)", f.Kind, by, c.Dur(f.By))
		}
	},
	Describe: func(f Fault) []sim.Arg { return describe("fault-desc-jump", f, sim.I("fault_by_ns", int64(f.By))) },
	OnClient: func(w *model.World, c *model.Client, f Fault) {
		w.Tell(c.Name, "fault", "client-clock-jump", sim.S("client", c.Name), sim.I("by_ns", int64(f.By)), sim.S("fault", string(f.Kind)))
		c.JumpClock(f.By)
	},
	OnNode: func(w *model.World, n *model.Node, f Fault) {
		w.Tell(n.Name(), "fault", "node-clock-jump", sim.S("node", n.Name()), sim.I("by_ns", int64(f.By)), sim.S("fault", string(f.Kind)),
			sim.I("wall_ns", int64(n.Clock().Wall(w.Now())+f.By)))
		w.JumpNodeClock(n, f.By)
	},
	Generate: func(g *Gen) Fault {
		f := Fault{Target: g.Pick(g.Names.All()), By: g.Long()}
		if g.Coin() {
			f.By = -f.By
		}
		return f
	},
	Prompt: &Prompt{
		Label:   func(bool) string { return "jump %s's clock by (±)" },
		Default: fixed("+20s"),
		Parse: func(v string, _ []string, f *Fault) error {
			d, err := promptDuration(v)
			if err != nil {
				return err
			}
			if d == 0 {
				return refuse("a clock jump of 0 changes nothing")
			}
			f.By = d
			return nil
		},
	},
}
