package model

import (
	"errors"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// Result is one node's answer in a CallAll: its reply or its error
// (ErrTimeout, ErrUnread, an error reply).
type Result struct {
	Reply any
	Err   error
}

// ErrUnread marks a node whose reply the client did not wait for: the
// round was decided early (CallAllUntil). Its command may well have run.
var ErrUnread = errors.New("not awaited")

// CallAll sends the same command to every node at once and waits until each
// has answered or the timeout has passed, whichever comes first; it returns
// the results in node order. It is CallTimeout for many nodes: one park of
// the calling thread rather than helper threads, so the order of events
// depends only on the network's seeded delays. The timeout runs on the
// client's monotonic clock, like every timer of the client.
//
// The replies are gathered by the kernel as they arrive but the thread reads
// them only when it runs again: a thread paused meanwhile (a GC pause) sees
// them all at once after the pause, with its clock showing the pause.
func (t *Thread) CallAll(nodes []*Node, op Op, timeout time.Duration, args []string) []Result {
	return t.CallAllUntil(nodes, op, timeout, args, nil)
}

// CallAllUntil is CallAll that stops waiting once enough (if not nil),
// told of each reply as it arrives, says the answer is decided: the nodes
// not heard from by then are ErrUnread, and their replies are ignored.
func (t *Thread) CallAllUntil(nodes []*Node, op Op, timeout time.Duration, args []string, enough func(Result) bool) []Result {
	g := &gathering{w: t.c.w, from: t.c.Name, id: t.c.id, res: make([]Result, len(nodes)), got: make([]bool, len(nodes)), left: len(nodes), enough: enough}
	if g.left == 0 {
		return g.res
	}
	g.tk = t.p.Arm()
	for i, n := range nodes {
		g.send(i, n, op, args)
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	g.timer = t.c.afterLocal(timeout, func() { g.expire(nodes, timeout) })
	t.p.Park()
	return g.res
}

// gathering is one CallAll in progress: the replies so far and the
// thread waiting for them.
type gathering struct {
	w     *World
	from  string
	id    int // from's Client.id
	res   []Result
	got   []bool
	left  int
	tk    sim.Ticket
	timer *localTimer
	// enough, when set, decides early (CallAllUntil).
	enough func(Result) bool
}

// send asks node n; its reply fills slot i, and the last reply wakes the
// caller.
func (g *gathering) send(i int, n *Node, op Op, args []string) {
	g.w.Net.Send(g.from, n.Name(), func() {
		reply, err, ok := g.w.serve(n, g.from, g.id, op, args)
		if !ok {
			return // a dead node never answers
		}
		g.w.Net.Send(n.Name(), g.from, func() {
			if g.got[i] {
				return // arrived after the timeout: ignored, as by a real client
			}
			g.got[i], g.res[i] = true, Result{reply, err}
			g.left--
			if g.left == 0 || (g.enough != nil && g.enough(g.res[i])) {
				g.decided()
			}
		})
	})
}

// decided wakes the caller before the timeout: every node not heard from
// is left unread.
func (g *gathering) decided() {
	for i := range g.res {
		if !g.got[i] {
			g.got[i], g.res[i] = true, Result{nil, ErrUnread}
		}
	}
	g.left = 0
	g.timer.Stop()
	g.tk.Wake(nil)
}

// expire is the timeout: every node not heard from times out.
func (g *gathering) expire(nodes []*Node, timeout time.Duration) {
	for i := range g.res {
		if !g.got[i] {
			g.got[i], g.res[i] = true, Result{nil, ErrTimeout}
			g.w.Tell(g.from, "timeout", "timeout", sim.S("node", nodes[i].Name()), sim.I("within_ns", int64(timeout)), sim.S("client", g.from))
		}
	}
	g.tk.Wake(nil)
}
