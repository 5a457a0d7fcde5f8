package redlock

import (
	"time"

	"github.com/lockstep-sim/lockstep/model"
)

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
	waker   model.Waker
	aborted bool
}

// Work is the work's d of time under abort_work (model.WorkRunner): it
// parks the work thread for d by the client's clock, or until abortWork
// wakes it, and reports false when the work was aborted.
func (r *Redlock) Work(t *model.Thread, d time.Duration) bool {
	ab := &abortable{}
	r.working[t.Client()] = ab
	t.SleepWakeable(d, &ab.waker)
	delete(r.working, t.Client())
	return !ab.aborted
}

// abortWork fires c's abort signal after a refused renewal: the work, if
// it is in progress and abortable, stops.
func (r *Redlock) abortWork(c *model.Client) {
	ab := r.working[c]
	if ab == nil || ab.aborted {
		return
	}
	ab.aborted = true
	c.Tell("aborted", "abort-signal")
	ab.waker.Wake()
}
