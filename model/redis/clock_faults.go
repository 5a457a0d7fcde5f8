package redis

import (
	"time"

	"github.com/lockstep-sim/lockstep/model/tracefmt"

	"github.com/lockstep-sim/lockstep/sim"
)

// JumpNodeClock steps n's wall clock by `by` now (fault clock_jump) and
// traces each effect: keys that expire early at once on a forward jump, the
// new PTTL of every key that keeps a TTL. With clock: monotonic only TIME
// moves. Expiry deletions reach n's replicas like any write.
func (w *Cluster) JumpNodeClock(n *Node, by time.Duration) []Expiry {
	now := w.Now()
	name := n.Name()
	// the jump as each line names it: the piece jump-tag ("redis-1 clock +20s")
	tag := []sim.Arg{sim.S("jump", "jump-tag"), sim.S("node", name), sim.I("by_ns", int64(by))}
	var before []KeyInfo
	if n.Up() {
		n.advance(now) // expiries due before the jump are ordinary ones
		before = n.Keys(now)
	}
	exp := n.JumpClock(now, by)
	switch {
	case !n.Up():
		w.Tell(name, "clock", "clock-jump-down", tag...)
	case n.Config().Monotonic:
		w.Tell(name, "clock", "clock-jump-monotonic", tag...)
	}
	for _, e := range exp {
		w.Tell(name, "expired", "clock-jump-expired", append(tag[:3:3], sim.S("key", e.Key), sim.I("early_ns", int64(e.Early)))...)
	}
	if n.Up() && !n.Config().Monotonic {
		after := n.Keys(now)
		for _, b := range before {
			if b.TTL < 0 {
				continue
			}
			for _, a := range after {
				if a.Key == b.Key && a.TTL != b.TTL {
					change, delta := "ttl-later", a.TTL-b.TTL
					if a.TTL < b.TTL {
						change, delta = "ttl-earlier", b.TTL-a.TTL
					}
					w.Tell(name, "ttl", "clock-jump-ttl", append(tag[:3:3], sim.S("key", a.Key), sim.I("before_ns", int64(b.TTL)), sim.I("after_ns", int64(a.TTL)),
						sim.S("change", change), sim.I("delta_ns", int64(delta)), sim.I("expires_ns", int64(now+n.Clock().TrueAfter(now, a.TTL))))...)
				}
			}
		}
	}
	w.obs.NodeClockJumped(n, by, exp)
	w.Ship(n, n.TakeEffects())
	return exp
}

// DriftNodeClock makes n's clock run rate× true speed from now on (fault
// clock_drift): every TTL then runs down rate× as fast in true time, with
// either expiry clock. It traces when each key with a TTL will now expire.
func (w *Cluster) DriftNodeClock(n *Node, rate float64) {
	now := w.Now()
	name := n.Name()
	n.SetClockRate(now, rate)
	w.Tell(name, "clock", "clock-rate", sim.S("node", name), sim.S("rate", tracefmt.Rate(rate)), sim.I("second_ns", int64(n.Clock().TrueAfter(now, time.Second))))
	if n.Up() {
		for _, k := range n.Keys(now) {
			if k.TTL >= 0 {
				d := n.Clock().TrueAfter(now, k.TTL)
				w.Tell(name, "ttl", "clock-rate-ttl", sim.S("node", name), sim.S("key", k.Key), sim.I("ttl_ns", int64(k.TTL)), sim.I("lasts_ns", int64(d)),
					sim.I("expires_ns", int64(now+d)))
			}
		}
	}
	w.obs.NodeClockDrifted(n, rate)
	w.Ship(n, n.TakeEffects())
}
