package redis

import (
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
	down    bool
	timer   sim.Timer     // the promotion, if the master stays unreachable
	at      time.Duration // true time the watch started (for the trace)
	waiting bool          // sentinels only: due, but no replica to promote yet
}

func (sw *sentinelWatch) reset() {
	sw.timer.Stop()
	*sw = sentinelWatch{}
}

// masterLost reports whether replica r cannot reach its master now, and
// why: the id of a piece of the catalogue (down-master-down, whose
// {master} the line names, or down-separated).
func (w *Cluster) masterLost(r *Node) (bool, string) {
	s := r.upstream
	if s == nil || !r.Up() {
		return false, ""
	}
	m := s.master
	switch {
	case !m.Up():
		return true, "down-master-down"
	case !w.Net.Connected(r.Name(), m.Name()):
		return true, "down-separated"
	}
	return false, ""
}

// sentinel re-evaluates every replica's watch; called whenever something a
// watch depends on changes (network, crash, restart, failover).
func (w *Cluster) sentinel() {
	after := w.Cfg.FailoverAfter
	if after <= 0 {
		return
	}
	if len(w.Sentinels) > 0 {
		for _, sh := range w.Shards {
			w.quorumWatch(sh, after)
		}
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
				w.Tell(r.Name(), "sdown", "replica-sdown", sim.S("node", r.Name()), sim.S("master", sh.Master.Name()), sim.S("why", why),
					sim.I("failover_ns", int64(now+after)), sim.I("after_ns", int64(after)))
			case !lost && r.watch.down:
				r.watch.reset()
				if r.Up() && r.upstream != nil {
					w.Tell(r.Name(), "sdown-end", "replica-sdown-end", sim.S("node", r.Name()), sim.S("master", sh.Master.Name()))
				}
			}
		}
	}
}

// sentinelFire promotes r if its master is still unreachable from it.
func (w *Cluster) sentinelFire(sh *Shard, r *Node) {
	if !r.watch.down {
		return
	}
	since := r.watch.at
	r.watch.reset()
	lost, why := w.masterLost(r)
	if !lost || r.upstream.master != sh.Master {
		return
	}
	w.promote(sh, r, sim.S("why", "why-failover-after"), sim.I("since_ns", int64(since)), sim.S("cause", why))
}

// With redis.sentinels > 0 the decision is Redis Sentinel's instead: N
// sentinel processes on the network watch each master. A sentinel that
// cannot reach the master (down, or a partition between them) holds it
// subjectively down; when a majority of the sentinels do and can reach one
// another (they must vote for a leader), the master is objectively down,
// and if that lasts failover_after the leader promotes a replica it can
// reach. So an isolated replica is never promoted, and a master cut off
// with its clients on a minority side is replaced by the majority side:
// Sentinel's own split brain, which min-replicas-to-write exists to bound.
// Like the watcher it is event-driven: re-evaluated whenever the network or
// a node changes, and a failover happens at exactly since+failover_after.

// odown reports whether a majority of the sentinels hold sh's master down
// and can reach one another, the leader they would elect (the first such
// sentinel by name), and why the master is unreachable (as masterLost).
func (w *Cluster) odown(sh *Shard) (bool, string, string) {
	m := sh.Master
	sdown := func(s string) bool { return !m.Up() || !w.Net.Connected(s, m.Name()) }
	need := w.SentinelMajority()
	for _, lead := range w.Sentinels {
		if !sdown(lead) {
			continue
		}
		votes := 0
		for _, s := range w.Sentinels {
			if sdown(s) && w.Net.Connected(lead, s) {
				votes++
			}
		}
		if votes >= need {
			why := "down-separated"
			if !m.Up() {
				why = "down-master-down"
			}
			return true, lead, why
		}
	}
	return false, "", ""
}

// quorumWatch starts or cancels shard sh's failover countdown as the
// sentinels' agreement that its master is down begins or ends; once the
// countdown has run out with no replica to promote, any change may bring
// one (a replica restarting, a partition healing), so it tries again.
func (w *Cluster) quorumWatch(sh *Shard, after time.Duration) {
	now := w.Now()
	w.sdownNotes(sh)
	down, lead, why := w.odown(sh)
	switch {
	case down && sh.odown.waiting:
		w.quorumFire(sh)
	case down && !sh.odown.down:
		sh.odown.down, sh.odown.at = true, now
		sh.odown.timer = w.K.At(now+after, func() { w.quorumFire(sh) })
		w.Tell("sentinels", "odown", "odown", sim.I("sentinels", int64(len(w.Sentinels))), sim.S("leader", lead), sim.S("master", sh.Master.Name()),
			sim.S("why", why), sim.I("failover_ns", int64(now+after)), sim.I("after_ns", int64(after)))
	case !down && sh.odown.down:
		sh.odown.reset()
		w.Tell("sentinels", "odown-end", "odown-end", sim.S("master", sh.Master.Name()))
	}
}

// quorumFire fails shard sh over if its master is still objectively down:
// the leader promotes the first replica of it that is up and that it can
// reach. With none it waits for one (quorumWatch).
func (w *Cluster) quorumFire(sh *Shard) {
	if !sh.odown.down {
		return
	}
	since, waiting := sh.odown.at, sh.odown.waiting
	down, lead, why := w.odown(sh)
	if !down {
		return
	}
	old := sh.Master
	for _, r := range sh.Replicas {
		if r.Up() && r.upstream != nil && r.upstream.master == old && w.Net.Connected(lead, r.Name()) {
			sh.odown.reset()
			w.promote(sh, r, sim.S("why", "why-sentinels"), sim.I("sentinels", int64(len(w.Sentinels))), sim.S("leader", lead),
				sim.I("since_ns", int64(since)), sim.S("cause", why))
			return
		}
	}
	sh.odown.waiting = true
	if !waiting {
		w.Tell("sentinels", "failover-wait", "failover-wait", sim.S("master", old.Name()), sim.S("leader", lead))
	}
}

// sdownNotes traces each sentinel's own view of sh's master as it changes,
// as Sentinel logs +sdown and -sdown: one sentinel's view alone decides
// nothing.
func (w *Cluster) sdownNotes(sh *Shard) {
	m := sh.Master
	if sh.sdownOf != m {
		sh.sdown, sh.sdownOf = make([]bool, len(w.Sentinels)), m
	}
	need := w.SentinelMajority()
	for i, s := range w.Sentinels {
		down := !m.Up() || !w.Net.Connected(s, m.Name())
		if down == sh.sdown[i] {
			continue
		}
		sh.sdown[i] = down
		if down {
			w.Tell(s, "sdown", "sentinel-sdown", sim.S("sentinel", s), sim.S("master", m.Name()), sim.I("need", int64(need)), sim.I("sentinels", int64(len(w.Sentinels))))
		} else {
			w.Tell(s, "sdown-end", "sentinel-sdown-end", sim.S("sentinel", s), sim.S("master", m.Name()))
		}
	}
}

// SentinelMajority is how many sentinels must agree for a failover.
func (w *Cluster) SentinelMajority() int { return len(w.Sentinels)/2 + 1 }

// SentinelViews reports, for display, which sentinels hold shard i's
// master down in their own view (all false without sentinels or before
// any change).
func (w *Cluster) SentinelViews(i int) []bool {
	out := make([]bool, len(w.Sentinels))
	if sh := w.Shards[i]; sh.sdownOf == sh.Master {
		copy(out, sh.sdown)
	}
	return out
}
