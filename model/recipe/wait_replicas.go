package recipe

import (
	"strconv"

	"github.com/lockstep-sim/lockstep/model"
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
// reports whether the grant stands; off (nil), it always does, and then
// it is inlined: no call.
func (s *single) waitReplicas(t *model.Thread, n *model.Node, l *model.Lease) bool {
	if wr := s.cfg.WaitReplicas; wr != nil {
		return s.waitFor(t, n, l, wr)
	}
	return true
}

// waitFor is waitReplicas when it is on.
func (s *single) waitFor(t *model.Thread, n *model.Node, l *model.Lease, wr *model.WaitReplicasConfig) bool {
	acked, err := t.Wait(n, wr.Replicas, wr.Timeout)
	if err == nil && acked >= wr.Replicas {
		return true
	}
	args := append([]sim.Arg{sim.S("client", t.Client().Name), sim.S("node", n.Name()), sim.I("replicas", int64(wr.Replicas)),
		sim.S("got", waitGot(acked, err))}, waitGotNote(acked, err)...)
	t.Tell("wait-failed", "wait-failed", args...)
	s.release(s, t, n, l)
	return false
}

// waitGot is what a WAIT that fell short got, for the trace: "only N",
// "no reply" or the error.
func waitGot(acked int, err error) string {
	switch {
	case err == model.ErrTimeout:
		return "no reply"
	case err != nil:
		return "the error " + err.Error()
	}
	return "only " + strconv.Itoa(acked)
}

// waitGotNote is the same as the args of a phrase (got_note: wait-got-only
// with acked, wait-got-no-reply, wait-got-error with error), which the
// trace's catalogue says in each language.
func waitGotNote(acked int, err error) []sim.Arg {
	switch {
	case err == model.ErrTimeout:
		return []sim.Arg{sim.S("got_note", "wait-got-no-reply")}
	case err != nil:
		return []sim.Arg{sim.S("got_note", "wait-got-error"), sim.S("error", err.Error())}
	}
	return []sim.Arg{sim.S("got_note", "wait-got-only"), sim.I("acked", int64(acked))}
}
