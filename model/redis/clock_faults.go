package redis

import (
	"fmt"
	"github.com/lockstep-sim/lockstep/model/tracefmt"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// JumpNodeClock steps n's wall clock by `by` now (fault clock_jump) and
// traces each effect: keys that expire early at once on a forward jump, the
// new PTTL of every key that keeps a TTL. With clock: monotonic only TIME
// moves. Expiry deletions reach n's replicas like any write.
func (w *Cluster) JumpNodeClock(n *Node, by time.Duration) []Expiry {
	now := w.Now()
	name := n.Name()
	tag := fmt.Sprintf("%s clock %s", name, tracefmt.SignedDur(by))
	var before []KeyInfo
	if n.Up() {
		n.advance(now) // expiries due before the jump are ordinary ones
		before = n.Keys(now)
	}
	exp := n.JumpClock(now, by)
	switch {
	case !n.Up():
		w.Emit(name, "clock", "%s: %s is down; its clock keeps running and the jump counts when it restarts", tag, name)
	case n.Config().Monotonic:
		w.Emit(name, "clock", "%s: only TIME moves; keys expire by the monotonic clock (clock: monotonic), no TTL changes", tag)
	}
	for _, e := range exp {
		w.Emit(name, "expired", "%s: %s expired %s early", tag, e.Key, tracefmt.Dur(e.Early))
	}
	if n.Up() && !n.Config().Monotonic {
		after := n.Keys(now)
		for _, b := range before {
			if b.TTL < 0 {
				continue
			}
			for _, a := range after {
				if a.Key == b.Key && a.TTL != b.TTL {
					verb := "expires " + tracefmt.Dur(a.TTL-b.TTL) + " later"
					if a.TTL < b.TTL {
						verb = "expires " + tracefmt.Dur(b.TTL-a.TTL) + " earlier"
					}
					w.Emit(name, "ttl", "%s: %s PTTL %s -> %s (%s, at %s true time)", tag, a.Key,
						tracefmt.Dur(b.TTL), tracefmt.Dur(a.TTL), verb, sim.FormatTime(now+n.Clock().TrueAfter(now, a.TTL)))
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
	w.Emit(name, "clock", "%s clock now runs %sx true speed: a 1s TTL lasts %s", name, tracefmt.Rate(rate), tracefmt.Dur(n.Clock().TrueAfter(now, time.Second)))
	if n.Up() {
		for _, k := range n.Keys(now) {
			if k.TTL >= 0 {
				d := n.Clock().TrueAfter(now, k.TTL)
				w.Emit(name, "ttl", "%s: %s PTTL %s now lasts %s of true time, expiring at %s", name, k.Key,
					tracefmt.Dur(k.TTL), tracefmt.Dur(d), sim.FormatTime(now+d))
			}
		}
	}
	w.obs.NodeClockDrifted(n, rate)
	w.Ship(n, n.TakeEffects())
}
