package faults

import (
	"strconv"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// Slow adds latency and loss to a process's links for a while.
const Slow Kind = "slow"

var slowSpec = Spec{
	Kind:    Slow,
	Doc:     "extra `latency` and `loss` on a process's links for `for`",
	Fields:  []*Field{FieldTarget, FieldLatency, FieldLoss, FieldFor},
	Targets: net,
	Check: func(c Checker, f Fault, _ bool) {
		lat, loss := FieldLatency.Name, FieldLoss.Name
		requireFor(c, f)
		c.NonNegative(lat, f.Latency)
		if !(f.Loss >= 0 && f.Loss <= 1) {
			c.Errorf(loss, "%s.%s is a drop probability and must be between 0 and 1 (got %g)", f.Kind, loss, f.Loss)
		}
		if c.FromFile() && !c.Written(lat) && !c.Written(loss) {
			c.Errorf("", "%s needs %s:, %s: or both", f.Kind, lat, loss)
		}
	},
	Describe: func(f Fault) []sim.Arg {
		return describe("fault-desc-slow", f, sim.I("fault_latency_ns", int64(f.Latency)), sim.S("fault_loss", formatRate(f.Loss)),
			sim.I("fault_for_ns", int64(f.For)))
	},
	OnClient:   netClient(slow),
	OnNode:     netNode(slow),
	OnSentinel: slow,
	Generate: func(g *Gen) Fault {
		f := Fault{Target: g.Pick(g.Names.Net()), Latency: g.Span(time.Millisecond, g.TTL/2)}
		if g.Coin() {
			f.Loss = Round2(g.R.Float64() / 2)
		}
		f.For = g.Long()
		return f
	},
	Prompt: &Prompt{
		Label: func(bool) string {
			return string(Slow) + " %s's links: +" + FieldLatency.Name + " [" + FieldLoss.Name + " 0..1] [for]"
		},
		Default: fixed("200ms 0 10s"),
		Parse:   parseSlow,
	},
}

func slow(w *model.World, f Fault) {
	end := w.Now() + f.For
	first, until := w.Cover(string(Slow), f.Target).Begin(end)
	id := w.Net.AddSlow(f.Target, f.Latency, f.Loss)
	if first {
		w.Tell(f.Target, "fault", "slow", sim.S("target", f.Target), sim.I("latency_ns", int64(f.Latency)), sim.S("loss", formatRate(f.Loss)), sim.I("for_ns", int64(f.For)))
	} else {
		lat, loss := w.Net.Slow(f.Target)
		w.Tell(f.Target, "fault", "slow-nested", sim.S("target", f.Target), sim.I("latency_ns", int64(f.Latency)), sim.S("loss", formatRate(f.Loss)),
			sim.I("for_ns", int64(f.For)), sim.I("until_ns", int64(until)), sim.I("total_latency_ns", int64(lat)), sim.S("total_loss", combinedLoss(loss)))
	}
	w.K.After(f.For, func() {
		w.Net.EndSlow(id)
		if last, until := w.Cover(string(Slow), f.Target).End(end); !last {
			lat, loss := w.Net.Slow(f.Target)
			w.Tell(f.Target, "heal", "slow-end-nested", sim.S("target", f.Target), sim.I("for_ns", int64(f.For)),
				sim.I("total_latency_ns", int64(lat)), sim.S("total_loss", combinedLoss(loss)), sim.I("until_ns", int64(until)))
			return
		}
		w.Tell(f.Target, "heal", "slow-end", sim.S("target", f.Target))
	})
}

// combinedLoss is a loss rate that slow faults add up to, as the trace
// prints it: six digits, so that 0.1 and 0.5 make 0.55, not 0.5499999999999999.
func combinedLoss(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// parseSlow reads "latency [loss [for]]", e.g. "200ms", "50ms 0.3", "0s 1 5s"
// (loss alone: every message dropped for 5s); loss defaults to 0 and for
// to 10s.
func parseSlow(v string, _ []string, f *Fault) error {
	fields := strings.Fields(strings.ReplaceAll(v, ",", " "))
	if len(fields) > 3 {
		return refuse("%q: give latency, then loss and for if you like (e.g. 200ms 0.1 10s)", v)
	}
	f.Loss, f.For = 0, 10*time.Second
	var err error
	if f.Latency, err = time.ParseDuration(fields[0]); err != nil || f.Latency < 0 {
		return refuse("%q is not an extra latency (try 200ms)", fields[0])
	}
	if len(fields) > 1 {
		if f.Loss, err = strconv.ParseFloat(fields[1], 64); err != nil || !(f.Loss >= 0 && f.Loss <= 1) {
			return refuse("%q is not a loss probability from 0 to 1", fields[1])
		}
	}
	if len(fields) > 2 {
		if f.For, err = time.ParseDuration(fields[2]); err != nil || f.For <= 0 {
			return refuse("%q is not a positive duration", fields[2])
		}
	}
	if f.Latency == 0 && f.Loss == 0 {
		return refuse("no extra latency and no loss changes nothing")
	}
	return nil
}
