package harness

import (
	"github.com/lockstep-sim/lockstep/model"
)

// strategy is the lock every client of a harness world runs: each attempt
// hands Lock (each release Unlock) to the client's goroutine and parks the
// client's simulated thread until the call returns. Everything around it
// is lockstep's own client: the hold loop, the resource, the trace, the
// judge's events, GC pauses and hangs of the thread, crashes.
type strategy struct{ d *driver }

func (s *strategy) Name() string { return "harness" }

// Acquire is one Lock call (the library's own retries inside it).
func (s *strategy) Acquire(t *model.Thread, l *model.Lease) bool {
	c := s.d.byName[t.Client().Name]
	r := t.Await(func(resume func(any)) { c.reqs <- request{resume: resume} }).(result)
	if r.err != nil {
		s.d.logf("%s: Lock: %v", c.name, r.err)
		return false
	}
	c.locked++
	l.Fence = r.token
	l.Until = -1
	if !r.until.IsZero() {
		l.Until = r.until.Sub(s.d.epoch)
	}
	l.Nodes = s.LockNodes(t.World())
	return true
}

// Release is one Unlock call; its error is logged (the judge sees what it
// did to the keys, not what the library says).
func (s *strategy) Release(t *model.Thread, l *model.Lease) {
	c := s.d.byName[t.Client().Name]
	r := t.Await(func(resume func(any)) { c.reqs <- request{unlock: true, resume: resume} }).(result)
	if r.err != nil {
		s.d.logf("%s: Unlock: %v", c.name, r.err)
	}
}

// Renew is never called: the harness runs no watchdog of its own (a
// library's renewal, if any, runs on its own goroutines).
func (s *strategy) Renew(*model.Thread, *model.Lease) bool { return false }

// Quorum is Config.Quorum, or a majority of the masters.
func (s *strategy) Quorum(w *model.World) int {
	if s.d.quorum > 0 {
		return s.d.quorum
	}
	return len(w.Shards)/2 + 1
}

// LockNodes are the shards' masters now.
func (s *strategy) LockNodes(w *model.World) []*model.Node {
	out := make([]*model.Node, len(w.Shards))
	for i, sh := range w.Shards {
		out[i] = sh.Master
	}
	return out
}
