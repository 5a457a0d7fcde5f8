package model

import "time"

// node-redlock's using(routine): the lock is extended in the background
// and, when an extension fails, an AbortSignal tells the routine, which is
// expected to stop (src/index.ts using(): controller.abort() in the
// extension's catch; the routine checks signal.aborted). lockstep's
// watchdog is the extension loop; with watchdog.abort_work a refused
// renewal wakes the work at once and it ends without its write, so the
// resource is not touched by a holder that knows it lost the lock. The
// window that remains is the one before the failed extension is read.

// abortable is one client's work in progress that an abort can end.
type abortable struct {
	wake    func()
	aborted bool
}

// workFor is the work's d of time: a plain Sleep, or under Redlock with
// abort_work an abortable one. It reports false when the work was aborted.
func (c *Client) workFor(t *Thread, d time.Duration) bool {
	r, ok := c.w.strategy.(*Redlock)
	if wd := c.w.Cfg.Lock.Watchdog; !ok || wd == nil || !wd.AbortWork || d <= 0 {
		t.Sleep(d)
		return true
	}
	return r.abortableWork(t, d)
}

// abortableWork parks the work thread for d by the client's clock, or until
// abortWork wakes it.
func (r *Redlock) abortableWork(t *Thread, d time.Duration) bool {
	ab := &abortable{}
	tk := t.p.Arm()
	timer := t.c.afterLocal(d, func() { tk.Wake(nil) })
	ab.wake = func() { timer.Stop(); tk.Wake(nil) }
	r.working[t.c] = ab
	t.p.Park()
	delete(r.working, t.c)
	return !ab.aborted
}

// abortWork fires c's abort signal after a refused renewal: the work, if
// it is in progress and abortable, stops.
func (r *Redlock) abortWork(c *Client) {
	ab := r.working[c]
	if ab == nil || ab.aborted {
		return
	}
	ab.aborted = true
	c.w.Tell(c.Name, "aborted", "abort-signal")
	ab.wake()
}
