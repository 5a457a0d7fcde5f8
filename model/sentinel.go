package model

import (
	"fmt"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// The failover watcher (redis.failover_after > 0) is a Sentinel reduced to
// its effect: each replica watches its own master, from its own side of the
// network, and is promoted once the master has been unreachable from it for
// failover_after without a break. "Unreachable" is: the master is down, or a
// partition or isolation separates the two (a master that answers -LOADING
// counts as reachable, as Sentinel counts it). There is one watcher per
// replica and no quorum, so an isolated replica promotes itself; that is the
// split brain of the Jepsen analysis in its simplest form.
//
// It is event-driven, not polled: the watch starts the instant the master
// becomes unreachable (a crash, a partition starting) and is cancelled the
// instant it becomes reachable again, so a failover happens at exactly
// since+failover_after, whatever the step size of a run.
type sentinelWatch struct {
	down  bool
	timer sim.Timer     // the promotion, if the master stays unreachable
	at    time.Duration // true time the watch started (for the trace)
}

func (sw *sentinelWatch) reset() {
	sw.timer.Stop()
	*sw = sentinelWatch{}
}

// masterLost reports whether replica r cannot reach its master now, and why.
func (w *World) masterLost(r *Node) (bool, string) {
	s := r.upstream
	if s == nil || !r.Up() {
		return false, ""
	}
	m := s.master
	switch {
	case !m.Up():
		return true, m.Name() + " is down"
	case !w.Net.Connected(r.Name(), m.Name()):
		return true, "the network separates them"
	}
	return false, ""
}

// sentinel re-evaluates every replica's watch; called whenever something a
// watch depends on changes (network, crash, restart, failover).
func (w *World) sentinel() {
	after := w.Cfg.Nodes.FailoverAfter
	if after <= 0 {
		return
	}
	now := w.Now()
	for _, sh := range w.Shards {
		for _, r := range sh.Replicas {
			lost, why := w.masterLost(r)
			if r.upstream == nil || r.upstream.master != sh.Master {
				lost = false
			}
			switch {
			case lost && !r.watch.down:
				r, sh := r, sh
				r.watch.down = true
				r.watch.at = now
				r.watch.timer = w.K.At(now+after, func() { w.sentinelFire(sh, r) })
				w.Emit(r.Name(), "sdown", "%s cannot reach its master %s (%s); failover at %s unless it comes back (failover_after %s)",
					r.Name(), sh.Master.Name(), why, sim.FormatTime(now+after), after)
			case !lost && r.watch.down:
				r.watch.reset()
				if r.Up() && r.upstream != nil {
					w.Emit(r.Name(), "sdown-end", "%s reaches its master %s again; no failover", r.Name(), sh.Master.Name())
				}
			}
		}
	}
}

// sentinelFire promotes r if its master is still unreachable from it.
func (w *World) sentinelFire(sh *Shard, r *Node) {
	if !r.watch.down {
		return
	}
	since := r.watch.at
	r.watch.reset()
	lost, why := w.masterLost(r)
	if !lost || r.upstream.master != sh.Master {
		return
	}
	w.promote(sh, r, fmt.Sprintf("failover_after: %s unreachable from %s since %s (%s)",
		sh.Master.Name(), r.Name(), sim.FormatTime(since), why))
}
