package harness

import (
	"fmt"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/sim"
)

// driver runs one world inside a synctest bubble: lockstep's kernel gives
// the order of events, the bubble gives the user's goroutines virtual time.
// It acts only when every goroutine of the bubble is durably blocked
// (synctest.Wait): then it runs one kernel event, or collects what the
// connections wrote (in a fixed order) and sends it through the simulated
// network, or sleeps the bubble to the next event. One kernel event wakes
// at most one client goroutine, so what the goroutines do between two
// waits does not depend on the Go scheduler.
type driver struct {
	t       *testing.T
	r       *runner.Runner
	w       *model.World
	k       *sim.Kernel
	epoch   time.Time // the bubble's instant for true time 0
	masters []string  // the shards' masters at the start: the names Dial takes
	quorum  int
	factory Factory
	verbose bool      // log the library's errors
	clients []*Client // in scenario order
	byName  map[string]*Client

	mu      sync.Mutex // guards what goroutines hand the driver:
	dials   []*dial    // dials asked for
	results []result   // Lock and Unlock calls that returned
	over    bool       // the run has ended: dials are refused
	stale   []string   // clients of earlier runs that dialled during this one
	wake    chan struct{}

	conns    []*conn             // open connections, in the order they were made
	paused   []*dial             // dials of paused clients, made when they resume
	held     map[string][]func() // per client, deliveries held while it is paused
	logs     []string            // library errors, for the test log (never hashed)
	rounds   int64               // synctest.Wait rounds of the loop
	failures []result            // a factory, Close or panic that fails the test
	rec      *traceRecord        // the trace, encoded when asked for
	timer    *time.Timer         // sleep's
	slept    bool                // the clock may have moved since the last look at read deadlines
}

// request and result are one Lock or Unlock handed to a client goroutine
// and its outcome handed back.
type request struct {
	unlock bool
	resume func(any)
}

type result struct {
	client *Client
	req    request
	err    error
	token  int64
	until  time.Time
	// panicked is what a Locker panicked with; closeErr marks a result that
	// answers no request (the factory or Close failed).
	panicked any
	closeErr bool
}

// active is the driver of the run in progress (Run is never parallel), so
// that a Client kept from an earlier run is caught when it dials.
var active atomic.Pointer[driver]

// staleDial notes that a Client of an earlier run dialled during this one.
func (d *driver) staleDial(name string) {
	d.mu.Lock()
	d.stale = append(d.stale, name)
	d.mu.Unlock()
}

// poke wakes the driver if it is sleeping (a goroutine wrote, dialled or
// returned); a spurious wake costs one look and changes nothing.
func (d *driver) poke() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *driver) request(dl *dial) {
	d.mu.Lock()
	over := d.over
	if !over {
		d.dials = append(d.dials, dl)
	}
	d.mu.Unlock()
	if over {
		dl.answer(nil, &net.OpError{Op: "dial", Net: "lockstep", Err: errRunOver})
		return
	}
	d.poke()
}

func (d *driver) post(r result) {
	d.mu.Lock()
	d.results = append(d.results, r)
	d.mu.Unlock()
	d.poke()
}

// now is the bubble's time as true simulated time.
func (d *driver) now() time.Duration { return time.Since(d.epoch) }

// loop drives the world until the run is over.
func (d *driver) loop() {
	for !d.r.Over() {
		synctest.Wait()
		d.rounds++
		if d.slept {
			d.slept = false
			if d.expireReads() {
				continue // the readers time out before the instant's kernel events, as on their own timers
			}
		}
		now := d.now()
		if at, ok := d.k.Next(); ok && at <= now {
			d.r.StepKernel()
			continue
		}
		d.k.RunUntil(now) // nothing is due: this only moves the kernel's clock
		if d.service() {
			continue
		}
		if d.w.Done() {
			d.r.StepKernel() // ends the run: every hold is done
			continue
		}
		at, ok := d.k.Next() // the end-of-run event keeps one pending
		if !ok {
			d.r.StepKernel()
			continue
		}
		if dl, ok := d.nextReadDeadline(); ok && dl < at {
			at = dl
		}
		d.sleep(at - now)
	}
}

// A Read's deadline is kept by the driver, not by a timer of the reader's:
// go-redis sets one for every command, and arming, resetting and stopping
// a timer per read (on a library goroutine whose stack then had to grow)
// was a quarter of a harness run's CPU. The driver sleeps no later than
// the earliest deadline of a waiting Read and wakes the readers whose
// deadline passed; they see it and time out.

// nextReadDeadline is the earliest deadline of a waiting Read, as true time.
func (d *driver) nextReadDeadline() (time.Duration, bool) {
	var first time.Time
	for _, cn := range d.conns {
		if dl, ok := cn.readDeadline(); ok && (first.IsZero() || dl.Before(first)) {
			first = dl
		}
	}
	if first.IsZero() {
		return 0, false
	}
	return max(first.Sub(d.epoch), d.now()), true
}

// expireReads wakes the Reads whose deadline has passed; it reports
// whether there was one.
func (d *driver) expireReads() bool {
	now, did := time.Now(), false
	for _, cn := range d.conns {
		if dl, ok := cn.readDeadline(); ok && !now.Before(dl) {
			cn.signal()
			did = true
		}
	}
	return did
}

// sleep lets the bubble's clock run to the next kernel event, or less if
// a goroutine wakes the driver first (its own timer fired and it wrote).
// One timer serves every sleep (a new one per sleep was a tenth of a run's
// allocation); since Go 1.23 a stopped timer's Reset leaves no stale tick.
func (d *driver) sleep(dt time.Duration) {
	if d.timer == nil {
		d.timer = time.NewTimer(dt)
	} else {
		d.timer.Reset(dt)
	}
	select {
	case <-d.timer.C:
	case <-d.wake:
		d.timer.Stop()
	}
	d.slept = true
}

// service does, at the current true time, what the goroutines asked for
// since the last look, in a fixed order: calls that returned, dials,
// closing what a crash ended, sending what was written, deliveries held by
// a pause that ended. It reports whether it did anything.
func (d *driver) service() bool {
	d.mu.Lock()
	results, dials := d.results, d.dials
	d.results, d.dials = nil, nil
	d.mu.Unlock()
	did := len(results) > 0
	slices.SortStableFunc(results, func(a, b result) int { return d.index(a.client) - d.index(b.client) })
	for _, r := range results {
		if r.closeErr || r.panicked != nil {
			d.failures = append(d.failures, r)
		}
		if r.req.resume != nil {
			d.k.At(d.k.Now(), func() { r.req.resume(r) })
		}
	}
	dials = append(d.paused, dials...)
	d.paused = nil
	slices.SortStableFunc(dials, func(a, b *dial) int {
		if x := d.index(a.client) - d.index(b.client); x != 0 {
			return x
		}
		return a.shard - b.shard
	})
	for _, dl := range dials {
		if d.isPaused(dl.client) {
			d.paused = append(d.paused, dl)
			continue
		}
		d.startDial(dl)
		did = true
	}
	did = d.hangUps() || did
	did = d.collect() || did
	return d.flushHeld() || did
}

func (d *driver) index(c *Client) int { return slices.Index(d.clients, c) }

func (d *driver) isPaused(c *Client) bool { return d.w.Client(c.name).Paused() }

// deliverTo runs fn, which hands something to client c, now, or when its
// GC pause ends: a paused process reads nothing.
func (d *driver) deliverTo(c *Client, fn func()) {
	if d.isPaused(c) {
		d.held[c.name] = append(d.held[c.name], fn)
		return
	}
	fn()
}

// flushHeld delivers, in order, what arrived for clients whose pause ended.
func (d *driver) flushHeld() bool {
	did := false
	for _, c := range d.clients {
		if h := d.held[c.name]; len(h) > 0 && !d.isPaused(c) {
			delete(d.held, c.name)
			for _, fn := range h {
				fn()
			}
			did = true
		}
	}
	return did
}

// logf keeps a line for the test log: library errors vary in wording and
// order (errors.Join of parallel goroutines), so they never enter the trace.
func (d *driver) logf(format string, args ...any) {
	d.logs = append(d.logs, fmt.Sprintf("t=%s ", sim.FormatTime(d.k.Now()))+fmt.Sprintf(format, args...))
}
