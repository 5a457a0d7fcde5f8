package redis

import (
	"strconv"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// errWaitOnReplica is Redis's answer to WAIT sent to a replica.
const errWaitOnReplica = RedisError("ERR WAIT cannot be used with replica instances.")

// waiter is one client blocked in WAIT numreplicas timeout on a master: the
// offset each replication stream must have acknowledged, and the reply to
// send once enough have (or at the timeout, with how many did).
type waiter struct {
	master *Node
	need   int
	off    int64 // the master's offset when WAIT arrived
	timer  sim.Timer
	reply  func(acked int, err error)
	done   bool
}

// acked counts the master's replicas that have acknowledged the offset,
// among those it feeds now (Redis's replicationCountAcksByOffset: a replica
// that synced after the WAIT and acked counts too).
func (wt *waiter) acked() int {
	n := 0
	for _, s := range wt.master.downstream {
		if !s.needSync && s.acked >= wt.off {
			n++
		}
	}
	return n
}

// Wait runs WAIT need timeout on master n at true time now, as Redis's
// waitCommand does: the count of replicas that have acknowledged every
// write made so far, at once if it is already need, else when acks bring it
// to need or at the timeout (0: no timeout), whichever comes first. The
// master asks for acks by putting REPLCONF GETACK into each replication
// stream, behind the writes it is waiting for, so a held-back or lagging
// stream delays the answer exactly as it delays the data. reply is called
// at most once; never if n is down or crashes first (the client times
// out), as a real connection would just die.
//
// It reports false when n is down: no reply will come.
func (w *Cluster) Wait(n *Node, need int, timeout time.Duration, reply func(acked int, err error)) bool {
	if !n.Up() {
		return false
	}
	if n.replica {
		reply(0, errWaitOnReplica)
		return true
	}
	wt := &waiter{master: n, need: need, off: n.offset, reply: reply}
	if wt.acked() >= need {
		w.answer(n, wt)
		return true
	}
	for _, s := range n.downstream {
		s.pushGetAck()
	}
	n.waits = append(n.waits, wt)
	if timeout > 0 {
		wt.timer = w.K.After(timeout, func() { w.answer(n, wt) })
	}
	return true
}

// answer replies to wt with the count so far and forgets it.
func (w *Cluster) answer(n *Node, wt *waiter) {
	if wt.done {
		return
	}
	wt.done = true
	wt.timer.Stop()
	for i, x := range n.waits {
		if x == wt {
			n.waits = append(n.waits[:i:i], n.waits[i+1:]...)
			break
		}
	}
	wt.reply(wt.acked(), nil)
}

// answerWaits answers the WAITs on master m that an ack has satisfied.
func (w *Cluster) answerWaits(m *Node) {
	for i := 0; i < len(m.waits); {
		wt := m.waits[i]
		if wt.acked() >= wt.need {
			w.answer(m, wt) // removes it from m.waits
			continue
		}
		i++
	}
}

// dropWaits forgets the WAITs of a crashed master: their clients get no
// reply.
func (n *Node) dropWaits() {
	for _, wt := range n.waits {
		wt.done = true
		wt.timer.Stop()
	}
	n.waits = nil
}

// WaitArgs is the WAIT command as a client sends it (for its trace line).
func WaitArgs(need int, timeout time.Duration) []string {
	return []string{"WAIT", strconv.Itoa(need), strconv.FormatInt(timeout.Milliseconds(), 10)}
}
