package model

import (
	"strconv"
	"time"

	"github.com/lockstep-sim/lockstep/model/redis"
	"github.com/lockstep-sim/lockstep/sim"
)

// waitReplicas is lock.wait_replicas, the step after a single-instance
// grant: the client sends WAIT replicas timeout to the master that granted
// it and, if fewer replicas acknowledged the grant, releases the lock and
// counts the attempt as failed. This is Redisson's synced-slaves check
// (org.redisson.command.CommandAsyncService#syncedEval: the lock script and
// WAIT go in one batch with syncSlaves(availableSlaves, slavesSyncTimeout =
// 1000 ms); with checkLockSyncedSlaves on and getSyncedSlaves() == 0 it
// fails with "None of slaves were synced", and RedissonBaseLock.handleNoSync
// runs unlockInnerAsync). Redisson pipelines WAIT behind the script on one
// connection; here it follows the grant's reply, one round trip later. It
// reports whether the grant stands; off (nil), it always does.
func (s *single) waitReplicas(t *Thread, n *Node, l *Lease) bool {
	wr := s.cfg.WaitReplicas
	if wr == nil {
		return true
	}
	acked, err := t.wait(n, wr.Replicas, wr.Timeout)
	if err == nil && acked >= wr.Replicas {
		return true
	}
	c := t.c
	why := "only " + strconv.Itoa(acked)
	switch {
	case err == ErrTimeout:
		why = "no reply"
	case err != nil:
		why = "the error " + err.Error()
	}
	c.w.Tell(c.Name, "wait-failed", "wait-failed", sim.S("client", c.Name), sim.S("node", n.Name()), sim.I("replicas", int64(wr.Replicas)), sim.S("got", why))
	s.release(s, t, n, l)
	return false
}

// waitReply is WAIT's answer as the waiting thread receives it.
type waitReply struct {
	acked int
	err   error
}

// wait sends WAIT need timeout to node n and waits for the answer, which
// the node gives only when enough replicas ack or at its timeout (so not
// through the RPC pool, whose server answers at once). The client gives up
// after timeout plus its own request timeout, by its clock.
func (t *Thread) wait(n *Node, need int, timeout time.Duration) (int, error) {
	c, w := t.c, t.c.w
	args := redis.WaitArgs(need, timeout)
	tk := t.p.Arm()
	w.Net.Send(c.Name, n.Name(), func() {
		answered := w.Cluster.Wait(n, need, timeout, func(acked int, err error) {
			w.sayLine(n.Name(), "cmd", "cmd", w.cmdLine(c.Name, args, acked, err),
				sim.S("node", n.Name()), sim.S("client", c.Name), sim.S("command", commandName(args)))
			w.Net.Send(n.Name(), c.Name, func() { tk.Wake(waitReply{acked, err}) })
		})
		if !answered {
			w.Tell(n.Name(), "no-reply", "wait-no-reply", sim.S("node", n.Name()), sim.S("client", c.Name))
		}
	})
	give := timeout + w.Cfg.Lock.Timeout
	if w.Cfg.Lock.Timeout <= 0 {
		give = timeout + DefaultTimeout
	}
	lt := c.afterLocal(give, func() {
		w.Tell(c.Name, "timeout", "wait-timeout", sim.S("node", n.Name()), sim.I("within_ns", int64(give)), sim.S("client", c.Name))
		tk.Wake(waitReply{err: ErrTimeout})
	})
	r := t.p.Park().(waitReply)
	lt.Stop()
	return r.acked, r.err
}
