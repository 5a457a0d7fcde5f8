package harness

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing/synctest"
	"time"
)

// LeakBound is how long, in virtual time after the run ends, the harness
// waits for the clients' goroutines (a Lock or Unlock in progress, a
// Closer) to return once their contexts are cancelled and their
// connections closed.
const LeakBound = time.Minute

// run starts the clients, drives the world to its end, then winds the
// clients down and returns the report.
func (d *driver) run() Report {
	// An event at the end keeps the kernel's queue from running dry while
	// goroutines still have timers of their own (see loop).
	d.k.At(d.r.S.Duration, func() {})
	active.Store(d)
	var running atomic.Int32
	for _, c := range d.clients {
		running.Add(1)
		go c.serve(d.factory, func() { running.Add(-1) })
		synctest.Wait() // one factory at a time: what it draws is in a fixed order
	}
	d.loop()
	d.rec.end(d.k.Trace().Hash())
	rep := newReport(d.r)
	rep.trace = d.rec
	rep.WaitRounds = d.rounds
	d.windDown(&running)
	active.CompareAndSwap(d, nil)
	d.mu.Lock()
	stale := d.stale
	d.mu.Unlock()
	if len(stale) > 0 {
		d.t.Errorf("lockstep harness: a Client of an earlier run (%s) dialled during this one: a Locker or Redis client was kept outside the factory (a package variable, TestMain); make everything the Locker uses in the factory", stale[0])
	}
	for _, l := range d.logs {
		if d.verbose {
			d.t.Log(l)
		}
	}
	for _, c := range d.clients {
		if c.locked > 0 && c.sent == 0 {
			d.t.Errorf("lockstep harness: %s's Locker took the lock %d time(s) without sending a command through Client.Dial: its Redis client was made outside the factory, or dials elsewhere; lockstep judged nothing of it", c.name, c.locked)
		}
	}
	for _, r := range d.failures {
		if r.panicked != nil {
			d.t.Errorf("lockstep harness: %s: the Locker panicked: %v", r.client.name, r.panicked)
			continue
		}
		d.t.Errorf("lockstep harness: %s: %v", r.client.name, r.err)
	}
	return rep
}

// serve is a client's goroutine: it makes the Locker, then runs each Lock
// and Unlock the client's simulated thread asks for.
func (c *Client) serve(factory Factory, done func()) {
	defer done()
	defer func() {
		if cl, ok := c.locker.(io.Closer); ok {
			if err := cl.Close(); err != nil {
				c.d.post(result{client: c, err: fmt.Errorf("Close: %w", err), closeErr: true})
			}
		}
	}()
	c.locker = factory(c)
	if c.locker == nil {
		c.d.post(result{client: c, err: fmt.Errorf("the factory returned a nil Locker"), closeErr: true})
		return
	}
	for req := range c.reqs {
		c.d.post(c.call(req))
	}
}

// call makes one Lock or Unlock; a panic in the library is an error.
func (c *Client) call(req request) (r result) {
	r = result{client: c, req: req}
	defer func() {
		if p := recover(); p != nil {
			r.err = fmt.Errorf("panic: %v", p)
			r.panicked = p
		}
	}()
	if req.unlock {
		r.err = c.locker.Unlock(c.ctx)
		return r
	}
	if r.err = c.locker.Lock(c.ctx); r.err == nil {
		if tk, ok := c.locker.(Tokener); ok {
			r.token = tk.Token()
		}
		if u, ok := c.locker.(Untiler); ok {
			r.until = u.Until()
		}
	}
	return r
}

// windDown ends the clients: contexts cancelled, request channels closed
// (Closers run), every connection closed; then it waits up to LeakBound
// for their goroutines, and fails the test with the stacks if one is still
// running.
func (d *driver) windDown(running *atomic.Int32) {
	d.mu.Lock()
	d.over = true
	pending := d.dials
	d.dials = nil
	d.mu.Unlock()
	for _, dl := range append(d.paused, pending...) {
		dl.answer(nil, errRunOver)
	}
	for _, c := range d.clients {
		c.cancel()
		close(c.reqs)
	}
	for _, cn := range d.conns {
		cn.hangUp()
	}
	d.conns = nil
	deadline := time.Now().Add(LeakBound)
	for running.Load() > 0 && time.Now().Before(deadline) {
		synctest.Wait()
		d.drainAfterEnd()
		if running.Load() > 0 {
			time.Sleep(leakStep)
		}
	}
	d.drainAfterEnd()
	d.r.Close() // ends the simulated threads still parked (a Lock the run cut short)
	// The library's own goroutines (a pool's redialer) end once their
	// client is closed, on timers of their own: let the bubble's clock run
	// for them, since synctest stops it when this goroutine returns.
	others := bubbleGoroutines()
	for others != "" && time.Now().Before(deadline) {
		time.Sleep(leakStep)
		synctest.Wait()
		others = bubbleGoroutines()
	}
	if n := running.Load(); n > 0 || others != "" {
		d.t.Errorf("lockstep harness: goroutines still running %s after the run ended (%d of the clients'; a Lock or Unlock that ignores its context, a client not closed?):\n%s", LeakBound, n, others)
	}
}

// leakStep is how often windDown looks for goroutines left over.
const leakStep = 100 * time.Millisecond

// bubbleGoroutines are the stacks of the goroutines of this bubble other
// than the caller, "" when there are none.
func bubbleGoroutines() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for i, g := range strings.Split(string(buf), "\n\n") {
		// The first is the caller; synctest's own two wait for the bubble.
		if i > 0 && strings.Contains(firstLineOf(g), "synctest bubble") &&
			!strings.Contains(g, "internal/synctest.Run(") && !strings.Contains(g, "testing/synctest.testingSynctestTest(") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// drainAfterEnd answers what goroutines ask for after the end: dials are
// refused, results are only read for their errors.
func (d *driver) drainAfterEnd() {
	d.mu.Lock()
	results := d.results
	d.results = nil
	d.mu.Unlock()
	for _, r := range results {
		if r.closeErr || r.panicked != nil {
			d.failures = append(d.failures, r)
		}
	}
}
