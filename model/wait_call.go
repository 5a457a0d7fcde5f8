package model

import (
	"time"

	"github.com/lockstep-sim/lockstep/model/redis"
	"github.com/lockstep-sim/lockstep/sim"
)

// waitReply is WAIT's answer as the waiting thread receives it.
type waitReply struct {
	acked int
	err   error
}

// Wait sends WAIT need timeout to node n and waits for the answer, which
// the node gives only when enough replicas ack or at its timeout (so not
// through the RPC pool, whose server answers at once). The client gives up
// after timeout plus its own request timeout, by its clock.
func (t *Thread) Wait(n *Node, need int, timeout time.Duration) (int, error) {
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
