package model

import (
	"time"

	"github.com/lockstep-sim/lockstep/model/tracefmt"
)

// callAll sends the same command to every node at once and waits until each
// has answered or the timeout has passed, whichever comes first; it returns
// the results in node order. It is CallTimeout for many nodes: one park of
// the calling thread rather than helper threads, so the order of events
// depends only on the network's seeded delays. The timeout runs on the
// client's monotonic clock, like every timer of the client.
//
// The replies are gathered by the kernel as they arrive but the thread reads
// them only when it runs again: a thread paused meanwhile (a GC pause) sees
// them all at once after the pause, with its clock showing the pause.
func (t *Thread) callAll(nodes []*Node, op Op, timeout time.Duration, args []string) []rpcResult {
	w := t.c.w
	from := t.c.Name
	res := make([]rpcResult, len(nodes))
	got := make([]bool, len(nodes))
	left := len(nodes)
	if left == 0 {
		return res
	}
	tk := t.p.Arm()
	var timer *localTimer
	for i, n := range nodes {
		w.Net.Send(from, n.Name(), func() {
			reply, err, ok := w.serve(n, from, op, args)
			if !ok {
				return // a dead node never answers
			}
			w.Net.Send(n.Name(), from, func() {
				if got[i] {
					return // arrived after the timeout: ignored, as by a real client
				}
				got[i], res[i] = true, rpcResult{reply, err}
				if left--; left == 0 {
					timer.Stop()
					tk.Wake(nil)
				}
			})
		})
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	timer = t.c.afterLocal(timeout, func() {
		for i := range res {
			if !got[i] {
				got[i], res[i] = true, rpcResult{nil, ErrTimeout}
				w.Emit(from, "timeout", "no reply from %s within %s by %s's clock", nodes[i].Name(), tracefmt.Dur(timeout), from)
			}
		}
		tk.Wake(nil)
	})
	t.p.Park()
	return res
}
