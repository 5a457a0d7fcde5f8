package model

import (
	"strconv"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/model/store"
	"github.com/lockstep-sim/lockstep/sim"
)

// External clients (package harness): a real lock library runs outside the
// kernel, on goroutines, and only its bytes enter the world. Its commands
// are Lua and plain commands lockstep did not write, so the world cannot
// say beforehand what one means to the lock; it judges each by what it did
// to the lock key, and the connection it came from says whose it was.

// opInfer asks exec to infer the command's meaning from the lock key's
// presence before and after it (inferOp).
const opInfer Op = 255

// inferOp is what a command that changed the lock key's presence from
// before to after means to the lock: creating it is an acquire, deleting
// it a release (a wrong one when the key was another client's), touching
// a key that stays a renewal (the judge re-reads its TTL only when the key
// is the caller's own).
func inferOp(p store.Presence) Op {
	switch {
	case !p.Before && p.After:
		return OpAcquire
	case p.Before && !p.After:
		return OpRelease
	case p.Before && p.After:
		return OpRenew
	}
	return OpOther
}

// ExecExternal runs, at the current true time, one command that an
// external client's connection delivered to node n: traced, judged by what
// it did to the lock key, and replicated like any client's command. A down
// node gives ErrDown (no reply).
func (w *World) ExecExternal(n *Node, client string, args []string) (any, error) {
	return w.exec(n, client, -1, opInfer, args)
}

// Await parks the thread until the resume function given to start is
// called from kernel context (an event), and returns the value passed to
// it. start runs before the thread parks; it hands resume to whatever will
// finish the work (the harness: a real library's Lock on a goroutine). A
// paused or hung thread takes the wake when it runs again, as any other.
func (t *Thread) Await(start func(resume func(v any))) any {
	tk := t.p.Arm()
	start(tk.Wake)
	return t.p.Park()
}

// IsWait reports whether args is WAIT, which a node answers only when
// enough replicas acknowledged or at its timeout (ExternalWait), not at
// once as ExecExternal does.
func IsWait(args []string) bool { return len(args) > 0 && strings.EqualFold(args[0], "WAIT") }

// ExternalWait runs WAIT numreplicas timeout from an external client's
// connection on node n now, as Redis's waitCommand does (redis.Cluster.Wait):
// reply gets the count of replicas that acknowledged, or an error, from
// kernel context, traced like the built-in clients' WAIT. It reports false
// when n is down (no reply will come).
func (w *World) ExternalWait(n *Node, client string, args []string, reply func(acked any, err error)) bool {
	if !n.Up() {
		w.Tell(n.Name(), "no-reply", "wait-no-reply", sim.S("node", n.Name()), sim.S("client", client))
		return false
	}
	need, err1 := strconv.Atoi(args[min(1, len(args)-1)])
	ms, err2 := strconv.ParseInt(args[min(2, len(args)-1)], 10, 64)
	switch {
	case len(args) != 3:
		reply(nil, RedisError("ERR wrong number of arguments for 'wait' command"))
		return true
	case err1 != nil || err2 != nil || need < 0:
		reply(nil, RedisError("ERR value is not an integer or out of range"))
		return true
	case ms < 0 || ms > int64(time.Duration(1<<62)/time.Millisecond):
		reply(nil, RedisError("ERR timeout is out of range"))
		return true
	}
	return w.Cluster.Wait(n, need, time.Duration(ms)*time.Millisecond, func(acked int, err error) {
		w.sayLine(n.Name(), "cmd", "cmd", w.cmdLine(client, args, acked, err),
			sim.S("node", n.Name()), sim.S("client", client), sim.S("command", commandName(args)))
		reply(acked, err)
	})
}
