package faults

import (
	"strconv"
	"strings"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// ClockDrift makes a clock run Rate× true speed from now on.
const ClockDrift Kind = "clock_drift"

// Drift rates outside [MinRate, MaxRate] are refused (skipped, with a trace
// line): beyond them a clock's readings overflow int64 nanoseconds within a
// run, and no real clock is that wrong. The loader refuses them too.
const (
	MinRate = 0.001
	MaxRate = 1000.0
)

func rateOK(r float64) bool { return r >= MinRate && r <= MaxRate }

var clockDriftSpec = Spec{
	Kind:    ClockDrift,
	Doc:     "from now on a clock runs `rate`× true speed",
	Fields:  []*Field{FieldTarget, FieldRate},
	Targets: all,
	Need:    needAll,
	Check: func(c Checker, f Fault, _ bool) {
		rate := FieldRate.Name
		if c.Required(rate, i18n.M("%s.%s (clock speed relative to true time, e.g. %s: 1.1)", f.Kind, rate, rate)) && !rateOK(f.Rate) {
			c.Errorf(rate, "%s.%s must be from %g to %g (got %g)", f.Kind, rate, MinRate, MaxRate, f.Rate)
		}
	},
	Describe: func(f Fault) []sim.Arg {
		return describe("fault-desc-drift", f, sim.S("fault_rate", formatRate(f.Rate)))
	},
	Skip: func(w *model.World, f Fault) bool {
		if rateOK(f.Rate) {
			return false
		}
		w.Tell(f.Target, "skipped", "drift-rate-out-of-range", desc(f, sim.S("min", formatRate(MinRate)), sim.S("max", formatRate(float64(MaxRate))))...)
		return true
	},
	OnClient: func(w *model.World, c *model.Client, f Fault) {
		w.Tell(c.Name, "fault", "clock-drift", sim.S("target", c.Name), sim.S("rate", formatRate(f.Rate)), sim.S("fault", string(f.Kind)))
		c.SetClockRate(f.Rate)
	},
	OnNode: func(w *model.World, n *model.Node, f Fault) {
		w.Tell(n.Name(), "fault", "clock-drift", sim.S("target", n.Name()), sim.S("rate", formatRate(f.Rate)), sim.S("fault", string(f.Kind)))
		w.DriftNodeClock(n, f.Rate)
	},
	Generate: func(g *Gen) Fault {
		f := Fault{Target: g.Pick(g.Names.All())}
		// 0.5x .. 2x true speed, never (nearly) 1.
		u := 0.05 + g.R.Float64()*0.95
		if g.Coin() {
			u = -u / 2
		}
		f.Rate = Round2(1 + u)
		return f
	},
	Prompt: &Prompt{
		Label:   func(bool) string { return "%s's clock runs at × true speed" },
		Default: fixed("1.5"),
		Parse: func(v string, _ []string, f *Fault) error {
			r, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(v, "x"), "×"), 64)
			if err != nil || !rateOK(r) {
				return refuse("%q is not a clock rate from %g to %g (try 1.5 for fast, 0.5 for slow)", v, MinRate, float64(MaxRate))
			}
			f.Rate = r
			return nil
		},
	},
}
