package sim

import (
	"fmt"
	"iter"
	"time"
)

// A Proc is a simulated thread: a coroutine (iter.Pull) that runs only when
// the kernel hands it control and gives control back whenever it parks.
// Coroutines switch without the Go scheduler, an order of magnitude cheaper
// than a goroutine handoff over channels. This lets a lock
// strategy read as straight-line code (acquire, work, release) while the
// kernel keeps exactly one piece of simulation code running at a time.
//
// Procs belong to a Group, the simulated OS process: pausing the group (a GC
// pause) freezes every thread in it, while freezing one Proc (a hung worker)
// leaves its siblings running.
type Proc struct {
	k     *Kernel
	name  string
	group *Group
	next  func() (struct{}, bool) // resume the coroutine until it parks or ends
	stop  func()                  // unwind the coroutine (kill)
	yield func(struct{}) bool     // inside the coroutine: park
	wakeV any                     // the value the next resume delivers
	dying bool

	ticket  uint64 // the park the proc is waiting in; wakes for older tickets are stale
	sleepTk Ticket // the ticket Sleep's wake-up event wakes (see procSleep)
	parked  bool   // in Park, waiting for a wake: so alive too (kill and main clear it)
	drives  bool   // its next Park may run the kernel's loop (drive.go): resumed by an event, not ArmShared
	link    int    // its place in the kernel's chain while it drives, else notDriving
	alive   bool
	frozen  bool
	pending []wake // wakes that arrived while frozen, delivered in order on thaw
}

// Group is a simulated OS process: a set of Procs that pause and die together.
type Group struct {
	Name    string
	k       *Kernel
	procs   []*Proc
	frozen  bool
	dead    bool
	pending []wake
}

type wake struct {
	p      *Proc
	ticket uint64
	v      any
}

// killed is the panic value that unwinds a Proc's goroutine when its group dies.
type killed struct{}

// NewGroup creates an empty simulated process.
func (k *Kernel) NewGroup(name string) *Group { return &Group{Name: name, k: k} }

// Spawn creates a thread in the group that starts running fn at true time
// start. fn runs on its own goroutine but only while the kernel waits for it.
func (g *Group) Spawn(name string, start time.Duration, fn func(p *Proc)) *Proc {
	k := g.k
	p := &Proc{k: k, name: name, group: g, alive: true, parked: true, link: notDriving}
	g.procs = append(g.procs, p)
	k.procs = append(k.procs, p)
	p.next, p.stop = iter.Pull(func(yield func(struct{}) bool) {
		// The coroutine's body is this closure, not a call from it: the
		// frames at the coroutine's base sit under everything the thread
		// runs, and under the kernel's handlers while it drives, for
		// which growStack makes room at once (a run stepped one event at
		// a time never drives: its Procs keep the stack they need).
		defer p.exit()
		p.yield = yield
		if !p.dying {
			if k.left > 0 { // a run of many events: it will drive (drive.go)
				growStack()
			}
			fn(p)
		}
	})
	tk := Ticket{p: p, n: p.ticket}
	k.At(start, func() { tk.Wake(nil) })
	return p
}

// exit ends the coroutine's body. A kill unwinds it with a panic that is
// recovered here, so no deferred code of the simulated program observes it
// as an error. Any other panic is panicked again with the process's name:
// iter.Pull hands a panic in the coroutine to the caller of next, so it
// surfaces on the kernel's goroutine, in whatever woke the process.
func (p *Proc) exit() {
	r := recover()
	p.alive = false
	p.parked = false
	if _, kill := r.(killed); r != nil && !kill {
		if p.link != notDriving {
			panic(r) // an event's, in the loop p ran (drive.go): not p's own
		}
		panic(fmt.Sprintf("sim: process %s panicked: %v", p.name, r))
	}
}

// Name is the thread's name, e.g. "A" or "A/watchdog".
func (p *Proc) Name() string { return p.name }

// Group is the simulated process the thread belongs to.
func (p *Proc) Group() *Group { return p.group }

// Kernel is the kernel the thread runs on.
func (p *Proc) Kernel() *Kernel { return p.k }

// Now is the true time; only the simulator's bookkeeping may use it, a
// simulated client must read its own clock.
func (p *Proc) Now() time.Duration { return p.k.now }

// Alive reports whether the thread has neither finished nor been killed.
func (p *Proc) Alive() bool { return p.alive }

// Ticket names one park of one Proc. Waking it resumes the Proc with a value;
// only the first wake of a ticket counts, so a reply and a timeout can race
// for the same park harmlessly.
type Ticket struct {
	p *Proc
	n uint64
}

// Arm returns the ticket for the Proc's next Park. Call it from the Proc's own
// goroutine before scheduling whatever will wake it, then Park.
func (p *Proc) Arm() Ticket {
	p.ticket++
	return Ticket{p: p, n: p.ticket}
}

// ArmShared is Arm for a park that another Proc's code may end (a
// waker, a watchdog's stop), not only an event: such a park gives control
// back at once and never runs the kernel's loop (drive.go), because the
// Proc that ends it would run above it.
func (p *Proc) ArmShared() Ticket {
	p.drives = false
	return p.Arm()
}

// Park waits until the armed ticket is woken, and returns the value it was
// woken with. A Proc an event resumed runs the kernel's loop meanwhile
// (drive.go), and its own wake then returns at once; otherwise, or once the
// run's bounds are reached, it gives control back to whoever resumed it.
// Park is inlined into its callers, and Kernel.park is the one frame
// between them and the loop.
func (p *Proc) Park() any {
	p.parked = true
	return p.k.park(p)
}

// Sleep parks the thread for a true duration d.
func (p *Proc) Sleep(d time.Duration) {
	p.sleepTk = p.Arm()
	p.k.AfterHandler(d, (*procSleep)(p))
	p.Park()
}

// procSleep is a Proc as the handler of its Sleep's wake-up, which spares a
// closure per Sleep. A Proc has at most one such event queued: only that
// event holds the ticket of the park, so nothing else ends a Sleep early and
// the Proc cannot sleep again before it fires (a kill ends the Proc).
type procSleep Proc

func (s *procSleep) Fire() { s.sleepTk.Wake(nil) }

// Wake resumes the ticket's Proc with v, now, from kernel context (an event
// callback). A stale ticket, a dead Proc or a second wake is ignored; a wake
// for a frozen Proc waits until it thaws. A Proc that runs the kernel's
// loop while it waits runs once the handler returns (drive.go).
func (t Ticket) Wake(v any) { t.Deliver(v) }

// Deliver is Wake, reporting whether the Proc took v: it ran, or runs as
// soon as the handler returns; false when the wake was ignored or is held
// for a frozen Proc.
func (t Ticket) Deliver(v any) (taken bool) {
	p := t.p
	if !p.wakeable(t.n) {
		return false
	}
	if p.frozen || p.group.frozen {
		p.hold(t.n, v)
		return false
	}
	p.parked = false
	p.wakeV = v
	k := p.k
	if p.link != notDriving { // it drives: it runs once the handler returns (drive.go)
		if k.inProc || p.link > k.woke {
			k.wrongWake(p)
		}
		k.woke, k.cut = p.link, min(k.cut, p.link)
		return true
	}
	// Hand control to the Proc now, and wait until it parks or ends. This is
	// written out here, not called: each frame between a handler and the
	// coroutine switch is a mispredicted return on the way back (see
	// Kernel.loop), and a panic of the Proc needs no check here (main).
	// Resumed by an event (no Proc's code runs), it may drive at its next
	// Park.
	inProc := k.inProc
	if !inProc && k.woke != noCut {
		k.wrongWake(p)
	}
	p.drives = !inProc
	k.inProc = true
	p.next()
	k.inProc = inProc
	return true
}

// hold keeps a wake of a frozen Proc (or of one in a paused group) until
// it thaws. It is a call of its own so that Wake, on its way to the
// coroutine switch, keeps nothing in its frame for the appends.
//
//go:noinline
func (p *Proc) hold(ticket uint64, v any) {
	w := wake{p: p, ticket: ticket, v: v}
	if p.group.frozen {
		p.group.pending = append(p.group.pending, w)
		return
	}
	p.pending = append(p.pending, w)
}

func (p *Proc) wakeable(n uint64) bool {
	return p.parked && p.ticket == n && !p.group.dead // parked: alive too
}

func (p *Proc) kill() {
	if !p.alive {
		return
	}
	if !p.parked {
		// Only possible if kill is called from inside the proc itself;
		// the simulator never does that.
		panic("sim: kill of a running process " + p.name)
	}
	if p.link != notDriving {
		// It runs the kernel's loop, under the code calling kill: it
		// unwinds once the chain hands control back to it (Kernel.park).
		p.dying, p.parked, p.alive = true, false, false
		p.k.cut = min(p.k.cut, p.link)
		return
	}
	p.dying = true
	p.parked = false
	p.stop()
	p.alive = false
}

// Freeze stops the thread from running (a hung worker): wakes are kept until Thaw.
func (p *Proc) Freeze() { p.frozen = true }

// Frozen reports whether the thread itself is frozen.
func (p *Proc) Frozen() bool { return p.frozen }

// Thaw lets the thread run again and delivers, in order, what woke it meanwhile.
func (p *Proc) Thaw() {
	if !p.frozen {
		return
	}
	p.frozen = false
	pending := p.pending
	p.pending = nil
	redeliver(p.k, pending)
}

// Pause freezes every thread of the process (a stop-the-world GC pause).
func (g *Group) Pause() { g.frozen = true }

// Paused reports whether the process is paused.
func (g *Group) Paused() bool { return g.frozen }

// Resume ends a pause; wakes that arrived meanwhile are delivered in the
// order they arrived, as a process reads its sockets and timers on waking.
func (g *Group) Resume() {
	if !g.frozen {
		return
	}
	g.frozen = false
	pending := g.pending
	g.pending = nil
	redeliver(g.k, pending)
}

// redeliver schedules held wakes for now, in the order they arrived. Each is
// its own event, so a thread that parks again sees only the wakes meant for
// its new ticket (the others are stale and dropped).
func redeliver(k *Kernel, pending []wake) {
	for _, w := range pending {
		k.At(k.now, func() { Ticket{p: w.p, n: w.ticket}.Wake(w.v) })
	}
}

// Kill ends every thread of the process at once (a crash): no deferred code
// of the simulated program runs.
func (g *Group) Kill() {
	if g.dead {
		return
	}
	g.dead = true
	g.pending = nil
	for _, p := range g.procs {
		p.kill()
	}
}

// Dead reports whether the process has been killed.
func (g *Group) Dead() bool { return g.dead }
