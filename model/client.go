package model

import (
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/sim"
)

// ClientState is what a client is doing, as the TUI shows it.
type ClientState string

// Client states.
const (
	StateIdle      ClientState = "idle"
	StateAcquiring ClientState = "acquiring"
	StateHolding   ClientState = "holding"
	StateWorking   ClientState = "working"
	StateReleasing ClientState = "releasing"
	StateThinking  ClientState = "thinking"
	StateCrashed   ClientState = "crashed"
	StateDone      ClientState = "done"
)

// Client is a simulated lock client: a process with a main thread running the
// workload (acquire, work, release, think) and, with a watchdog, a renewal
// thread. It measures time with its own clock.
type Client struct {
	Name string
	Cfg  ClientConfig
	// id is its place in World.Clients, which numbers its connection on
	// every node (redis.Node.DoTrackedAs).
	id int

	w     *World
	group *sim.Group
	main  *sim.Proc
	clock sim.Clock
	rng   *rand.Rand

	state       ClientState
	hold        int    // 1-based index of the current hold
	lease       *Lease // what the client believes it holds; nil: nothing
	pausedSince time.Duration
	hungSince   time.Duration
	hung        bool
	finished    bool // done or crashed (finish)
	renewals    int
	sub         *subscription // lock.notify: pubsub, while it waits for a release (pubsub.go)
	resent      int           // commands its driver sent again (driver.go)

	view   []*Node       // per shard, the master this client talks to (see World.masterFor)
	timers []*localTimer // wake-ups set by its monotonic clock, rescheduled on drift

	// spare is the last hold's lease storage when nothing can read it any
	// more, for the next hold (see recycle); lent says a resource request
	// of this hold was left in flight with a pointer to its lease.
	spare  *leaseBox
	lent   bool
	tokens holdTokens // its holds' tokens, a batch at a time
}

// Lease is what a client believes about one grant of the lock.
type Lease struct {
	Token string        // the value stored in the lock key
	Fence int64         // fencing token; 0 when fencing is off
	Start time.Duration // the client's wall clock when it started the successful attempt
	Until time.Duration // by its wall clock, the lease ends then; -1: no expiry (no TTL)
	Nodes []*Node       // the nodes that granted it
}

// reset makes l what a new attempt's lease is, Lease{Token: token, Start:
// start, Nodes: l.Nodes[:0]}, field by field: a Lease literal is built in a
// temporary in the caller's frame first, and retry's frame is on the stack
// of every request a hold sends. TestLeaseResetIsANewLease fails when a
// field is added to Lease and not here.
func (l *Lease) reset(token string, start time.Duration) {
	l.Token, l.Fence, l.Start, l.Until, l.Nodes = token, 0, start, 0, l.Nodes[:0]
}

func newClient(w *World, cfg ClientConfig) *Client {
	return &Client{Name: cfg.Name, Cfg: cfg, w: w, group: w.K.NewGroup(cfg.Name),
		rng: w.K.Rand("retry/" + cfg.Name), state: StateIdle, timers: make([]*localTimer, 0, timerRoom)}
}

func (c *Client) start() {
	c.main = c.group.Spawn(c.Name, c.Cfg.Start, func(p *sim.Proc) {
		c.run(&Thread{c: c, p: p})
	})
}

// State is what the client is doing now.
func (c *Client) State() ClientState { return c.state }

// Clock is the client's own clock.
func (c *Client) Clock() *sim.Clock { return &c.clock }

// Lease is what the client believes it holds, or nil.
func (c *Client) Lease() *Lease { return c.lease }

// InCriticalSection is the ground truth: the client is between a grant and its release.
func (c *Client) InCriticalSection() bool { return c.w.Chk.InCriticalSection(c.Name) }

// Paused reports whether the client process is frozen by a GC pause.
func (c *Client) Paused() bool { return c.group.Paused() }

// Hung reports whether the client's work thread is stalled.
func (c *Client) Hung() bool { return c.hung }

// PausedSince is when the current pause began.
func (c *Client) PausedSince() time.Duration { return c.pausedSince }

// Renewals is how many times the watchdog extended the current lease.
func (c *Client) Renewals() int { return c.renewals }

// Hold is the 1-based index of the hold in progress (or last done).
func (c *Client) Hold() int { return c.hold }

// setState is what the client is doing now (a finished client says so
// with finish instead). It is small enough to be inlined: the recorded
// history's event is built apart, in tapState.
func (c *Client) setState(s ClientState) {
	c.state = s
	if c.w.tap != nil { // for the record only: the judge does not read states
		c.tapState()
	}
}

// tapState records the client's state in a recorded history (World.Tap).
func (c *Client) tapState() {
	c.w.tap(judge.Event{At: c.w.K.Now(), Kind: judge.ClientState, Client: c.Name, Note: string(c.state), Value: int64(c.hold)})
}

// finish sets the state of a client that will do nothing more, done or
// crashed, and counts it once among the world's finished clients
// (World.Done): a finished client never runs again, so only these two
// calls, not every change of state, need to ask.
func (c *Client) finish(s ClientState) {
	c.setState(s)
	if !c.finished {
		c.finished = true
		c.w.finishedN++
	}
}

// Pause freezes the whole client process, watchdog included (a GC pause).
func (c *Client) Pause() {
	if c.group.Dead() || c.group.Paused() {
		return
	}
	c.pausedSince = c.w.Now()
	c.group.Pause()
	c.w.clientEvent(judge.Paused, c)
}

// Unpause ends a GC pause; what arrived meanwhile is read now.
func (c *Client) Unpause() {
	c.group.Resume()
	c.w.clientEvent(judge.Resumed, c)
}

// Hang stalls the work thread only; the watchdog keeps renewing.
func (c *Client) Hang() {
	if c.group.Dead() || c.hung {
		return
	}
	c.hung = true
	c.hungSince = c.w.Now()
	c.main.Freeze()
	c.w.clientEvent(judge.Hung, c)
}

// Unhang lets the work thread continue.
func (c *Client) Unhang() {
	c.hung = false
	c.main.Thaw()
	c.w.clientEvent(judge.Unhung, c)
}

// Crash kills the client: no release, no renewal, nothing more.
func (c *Client) Crash() {
	if c.group.Dead() {
		return
	}
	c.group.Kill()
	c.finish(StateCrashed)
	c.w.clientEvent(judge.Crashed, c)
}

// run is the client's workload, straight-line: for each hold, acquire,
// work inside the critical section, release, think.
func (c *Client) run(t *Thread) {
	for h := 1; h <= c.Cfg.Holds; h++ {
		c.hold = h
		box := c.takeLeaseBox()
		// The token names its owner (Checker.tokenOwner relies on it).
		if l := c.acquire(t, box, c.tokens.of(c.Name, h, c.Cfg.Holds)); l != nil {
			c.criticalSection(t, l)
		}
		c.recycle(box)
		if h < c.Cfg.Holds && c.Cfg.Think > 0 {
			c.setState(StateThinking)
			t.Sleep(c.Cfg.Think)
		}
	}
	c.finish(StateDone)
	c.tellDone()
}

// The trace lines below are written once a hold or once a run, and each
// builds its arguments in its own frame: inside acquire, retry or
// criticalSection they would sit in the frames on every client's
// coroutine stack during every request, and a stack that outgrows its
// room is copied to one twice the size (runtime.newstack).

// tellDone is the line of a client that has made all its holds.
func (c *Client) tellDone() {
	if c.Cfg.Holds == 1 {
		c.w.Tell(c.Name, "done", "done", sim.S("client", c.Name), sim.I("holds", 1), sim.S("held", "holds-one"))
	} else {
		c.w.Tell(c.Name, "done", "done", sim.S("client", c.Name), sim.I("holds", int64(c.Cfg.Holds)), sim.S("held", "holds-many"))
	}
}

// acquire tries to take the lock, retrying as configured; nil when it gave up.
func (c *Client) acquire(t *Thread, box *leaseBox, token string) *Lease {
	c.setState(StateAcquiring)
	began := c.w.Now()
	l := c.retry(t, box, token, &firstAcquire)
	wait := c.w.Now() - began
	if l == nil {
		c.w.clientWaited(judge.AcquireFailed, c, wait)
		c.setState(StateIdle)
		return nil
	}
	c.lease = l
	// The grant first, then what the checker makes of it: a trace reads
	// cause before effect.
	if !c.w.K.Unread(c.Name, "acquired") { // sim.Kernel.Unread: build nothing nobody reads
		c.sayAcquired(token, l)
	}
	c.w.clientWaited(judge.EnterCS, c, wait)
	return l
}

// sayAcquired is the "acquired" line of lease l, for a run whose trace
// text is read.
func (c *Client) sayAcquired(token string, l *Lease) {
	b := append(c.w.line(), "acquired "...)
	b = append(b, token...)
	fenceNote, leaseEnd := leasePhrases(l)
	c.w.sayLine(c.Name, "acquired", "acquired", appendLease(b, l), sim.S("client", c.Name), sim.S("token", token),
		sim.I("fence", l.Fence), sim.I("until_ms", msOr(l.Until)), sim.I("until_ns", int64(l.Until)),
		sim.S("fence_note", fenceNote), sim.S("lease_end", leaseEnd))
}

// acquireWhat is what a gave-up line says failed: its English word (the
// what argument, as the trace always had it) and its piece
// (model/tracemsg), which the line's text is rendered from.
type acquireWhat struct{ what, phrase string }

var (
	firstAcquire  = acquireWhat{"acquire", "acquire-first"}
	nestedAcquire = acquireWhat{"nested acquire", "acquire-nested"}
)

// leaseBox is a Lease with the storage of its first node: one allocation
// instead of a lease and then a one-node slice, and none at all for a hold
// that reuses the last one's (Client.recycle).
type leaseBox struct {
	Lease
	one [1]*Node
}

// takeLeaseBox is storage for the next hold's lease: the last hold's, when
// recycle kept it, or a new one.
func (c *Client) takeLeaseBox() *leaseBox {
	if box := c.spare; box != nil {
		c.spare = nil
		return box
	}
	return newLeaseBox()
}

// newLeaseBox is an empty lease whose Nodes use the box's own room.
func newLeaseBox() *leaseBox {
	box := new(leaseBox)
	box.Nodes = box.one[:0]
	return box
}

// recycle keeps a finished hold's lease storage for the next hold when
// nothing can read the lease any more: no watchdog (its thread may still
// be renewing), no strategy from outside the model (it may keep it), no
// resource request left in flight (it reads the lease when it arrives,
// resourceCall). Every attempt rewrites the whole lease (retry), so a
// reused one starts as a new one would; in a process that runs for a few
// milliseconds a new one is fresh memory, which the kernel must fault in.
func (c *Client) recycle(box *leaseBox) {
	lock := &c.w.Cfg.Lock
	if lock.Watchdog == nil && lock.Custom == nil && !c.lent {
		c.spare = box
	}
	c.lent = false
}

// retry runs attempts of the strategy's Acquire with the configured delays,
// on the lease in box. Its frame is on the stack of every request a hold
// sends, so giving up is in gaveUp's.
func (c *Client) retry(t *Thread, box *leaseBox, token string, what *acquireWhat) *Lease {
	r := c.w.Cfg.Lock.Retry
	attempts := 1
	if r != nil && r.Attempts > 1 {
		attempts = r.Attempts
	} else if r == nil && c.w.Cfg.Lock.Knobs.Notify == NotifyPubSub {
		attempts = math.MaxInt // Redisson's lock(): until granted (or lock.wait ends)
	}
	l := &box.Lease
	wait := newWaitBound(t, c.w.Cfg.Lock.Knobs.Wait)
	for i := 1; ; i++ {
		// Nothing keeps a failed attempt's lease, so the next attempt
		// reuses it (a contended lock fails most attempts), and the
		// storage of its Nodes (see model/recipe single.Acquire).
		l.reset(token, t.Wall())
		if c.w.strategy.Acquire(t, l) {
			c.unsubscribe()
			return l
		}
		if i >= attempts {
			return c.gaveUp(token, what, i, nil)
		}
		if !c.pauseBeforeRetry(t, wait, i) {
			return c.gaveUp(token, what, i, &wait)
		}
	}
}

// gaveUp ends an acquire that gave up after attempts attempts (see
// tellGaveUp): nil.
func (c *Client) gaveUp(token string, what *acquireWhat, attempts int, wait *waitBound) *Lease {
	c.unsubscribe()
	c.tellGaveUp(token, what, attempts, wait)
	return nil
}

// tellGaveUp is the line of an acquire that gave up after attempts
// attempts: all it was allowed, or, with wait, all of lock.wait.
func (c *Client) tellGaveUp(token string, what *acquireWhat, attempts int, wait *waitBound) {
	if wait == nil {
		c.w.Tell(c.Name, "gave-up", "gave-up", sim.S("client", c.Name), sim.S("token", token), sim.S("what", what.what), sim.I("attempts", int64(attempts)),
			sim.S("what_note", what.phrase))
		return
	}
	c.w.Tell(c.Name, "gave-up", "gave-up-wait", sim.S("what", what.what), sim.S("token", token), sim.I("wait_ns", int64(wait.total)), sim.I("attempts", int64(attempts)),
		sim.S("what_note", what.phrase))
}

// retryDelay is the pause after failed attempt i (1-based): delay ×
// backoff^(i-1), capped at max_delay, with a seeded random fraction.
func (c *Client) retryDelay(i int) time.Duration {
	r := c.w.Cfg.Lock.Retry
	d := float64(r.Delay)
	for j := 1; j < i; j++ {
		d *= r.Backoff
		if r.MaxDelay > 0 && d >= float64(r.MaxDelay) {
			break
		}
	}
	if r.MaxDelay > 0 && d > float64(r.MaxDelay) {
		d = float64(r.MaxDelay)
	}
	if r.Jitter > 0 {
		// Each product rounded on its own: no machine may fuse them into a
		// different delay (the trace must not depend on the CPU).
		d = float64(d*(1-r.Jitter)) + float64(c.rng.Float64()*d*r.Jitter)
	}
	if !(d < float64(sim.Never)) { // backoff^i overflows; converting that to an int is up to the CPU
		return sim.Never
	}
	return time.Duration(d)
}

// appendLease writes what an "acquired" line says of lease l after its
// token: the English of the phrases leasePhrases names, built by hand on
// the hot path (TestTraceIDsOfLeasesAndTallies holds the two the same).
func appendLease(b []byte, l *Lease) []byte {
	if l.Fence > 0 {
		b = strconv.AppendInt(append(b, " with fencing token "...), l.Fence, 10)
	}
	if l.Until < 0 {
		return append(b, ", no expiry"...)
	}
	b = sim.AppendTime(append(b, ", believes it holds until "...), l.Until)
	return append(b, " by its clock"...)
}

// leasePhrases are the pieces (model/tracemsg) an "acquired" line tells
// lease l with: its fencing token's, "" without one, and its end's.
func leasePhrases(l *Lease) (fenceNote, leaseEnd string) {
	if l.Fence > 0 {
		fenceNote = "lease-fence"
	}
	if l.Until < 0 {
		return fenceNote, "lease-no-expiry"
	}
	return fenceNote, "lease-until"
}

// criticalSection is one hold's inside: nested re-entries, the work, the
// releases. Like a finally block, the lock is released even when a nested
// acquire or the resource refuses.
func (c *Client) criticalSection(t *Thread, l *Lease) {
	st := c.w.strategy
	c.setState(StateHolding)
	wd := c.startWatchdog(l)
	depth, ok := 0, true
	if c.Cfg.Nested > 0 { // most holds have no re-entries: no call
		depth, ok = c.reenter(t, l)
	}
	if ok {
		c.work(t, l)
	}
	c.setState(StateReleasing)
	if !ok {
		c.w.clientWorking(c) // releasing without having worked (work said so otherwise)
	}
	for ; depth > 0; depth-- {
		st.Release(t, l)
	}
	wd.stop()
	c.w.clientLeft(c)
	if c.judgedKey() {
		c.w.clientReleasing(c)
	}
	st.Release(t, l)
	c.lease = nil
	if !c.w.K.Unread(c.Name, "released") {
		c.sayReleased(l)
	}
}

// sayReleased is the "released" line of lease l, for a run whose trace
// text is read.
func (c *Client) sayReleased(l *Lease) {
	c.w.sayLine(c.Name, "released", "released", append(append(c.w.line(), "released "...), l.Token...),
		sim.S("client", c.Name), sim.S("token", l.Token))
}

// reenter takes the lock again Cfg.Nested times inside the hold (a
// reentrant lock's nested acquires); depth is how many succeeded, ok false
// when one failed.
func (c *Client) reenter(t *Thread, l *Lease) (depth int, ok bool) {
	for ; depth < c.Cfg.Nested; depth++ {
		c.setState(StateAcquiring)
		nl := c.retry(t, newLeaseBox(), l.Token, &nestedAcquire) // the hold's own lease is in use
		if nl == nil {
			c.w.clientEvent(judge.NestedFailed, c)
			return depth, false
		}
		if nl.Fence > l.Fence {
			l.Fence = nl.Fence // a FencedLock's re-entry draws a token; the inner code writes with it
		}
		c.w.Tell(c.Name, "reentered", "reentered", sim.S("token", l.Token), sim.I("depth", int64(depth+2)))
	}
	return depth, true
}

// work is the critical section proper: read the counter, take `work` time,
// write counter+1 (a read-modify-write that a second holder can clobber).
func (c *Client) work(t *Thread, l *Lease) {
	c.setState(StateWorking)
	c.w.clientWorking(c)
	v, ok := c.w.readResource(t, l)
	if !ok {
		return
	}
	if !c.workFor(t, c.Cfg.Work) { // false: aborted (model/redlock/using.go)
		return
	}
	if c.w.Cfg.Lock.Knobs.CheckBeforeWrite && !c.stillValid(t, l) {
		return
	}
	c.w.writeResource(t, l, v+1)
}

// msOr is a time by a client's clock in whole milliseconds for a message's
// arguments; -1 (no expiry) stays -1.
func msOr(d time.Duration) int64 {
	if d < 0 {
		return -1
	}
	return d.Milliseconds()
}
