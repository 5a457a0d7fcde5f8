package model

import "github.com/lockstep-sim/lockstep/model/store"

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
	return w.exec(n, client, opInfer, args)
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
