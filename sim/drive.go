package sim

import "math"

// A Proc that waits runs the kernel's loop itself (drive), instead of
// handing control back to the kernel at every Park. Most wakes in a run
// are of the Proc that ran last: a client sends a request and parks, the
// request lands, the node's reply lands, and it wakes that client. Handed
// back at every Park, each such wake is two coroutine switches (to the
// kernel and back, ~190 instructions each); run by the waiting Proc, the
// wake of that Proc is no switch at all: its Park just returns.
//
// The order of events is the kernel's, whoever runs the loop: one loop at
// a time, on the same queue, within the same bounds (Kernel.until, left,
// the budget). What differs is only when the woken Proc's code runs. A
// wake of a Proc that is not driving runs it at once, as it always did
// (Proc.run); it may then drive in turn, above the one whose loop woke it:
// the Kernel's chain. A wake of a Proc in the chain runs it once the
// handler returns, and every Proc above it in the chain hands control back
// down to it first (Kernel.cut). So a handler must do nothing after its
// Wake that the woken code would have seen or changed (model's rpcReply
// asks Deliver whether the caller took its reply instead of reading what
// the caller did with it), and a Proc's code must never wake a Proc that
// drives: a park that another Proc's code may end is armed with ArmShared,
// and never drives.

// noCut is Kernel.cut when no Proc in the chain has been woken.
const noCut = math.MaxInt

// notDriving is Proc.link when the Proc is not in the kernel's chain.
const notDriving = -1

// drive is Park for a Proc that may run the kernel's loop (Proc.drives):
// it runs the events due while the Proc waits, and reports whether it was
// woken meanwhile (then Park returns its value); false means the run's
// bounds were reached or a Proc under it in the chain was woken, and the
// Proc hands control back to whoever resumed it, as any Park does.
//
//go:noinline
func (k *Kernel) drive(p *Proc) (woken bool) {
	i := len(k.chain)
	k.chain = append(k.chain, p)
	p.link = i
	k.running = nil
	k.loop(i)
	k.chain = k.chain[:i] // those above it handed back already
	p.link = notDriving
	if k.cut == i {
		k.cut = noCut
	}
	if p.parked {
		return false
	}
	if p.dying {
		panic(killed{}) // a kill while it drove (Proc.kill)
	}
	k.running = p
	return true
}

// wakeDriving is Wake for a Proc in the chain: it runs as soon as the
// handler returns and the Procs above it have handed back. Only an event's
// handler may wake it: a Proc's code runs above it in the chain, and the
// Proc it wakes would have to run before that code goes on.
func (k *Kernel) wakeDriving(p *Proc) {
	if k.running != nil {
		panic("sim: process " + k.running.name + " woke " + p.name + ", which runs the kernel's loop (a park another process may end is armed with ArmShared)")
	}
	if p.link > k.cut {
		k.misordered(p)
	}
	k.cut = p.link
}

// misordered panics for a wake of p, which does not drive, by a handler
// that already woke a Proc in the chain: p would run first, the other
// only once the handler returns.
//
//go:noinline
func (k *Kernel) misordered(p *Proc) {
	panic("sim: an event woke " + p.name + " after waking " + k.chain[k.cut].name + ", which runs the kernel's loop: it would run second")
}

// stackRoom is about how deep the kernel's handlers run below a Proc's
// Park when it drives: its coroutine's stack grows to 8 KB to hold them.
const stackRoom = 5 << 10

// growStack makes the coroutine's stack as big as driving needs at once,
// while only its base frames are on it: a stack grows by copying itself
// whole and adjusting every frame's pointers, and growing from 2 KB to
// 4 KB and then 8 KB in the middle of a hold, with some thirty frames on
// it each time, cost ~55,000 instructions a Proc (cachegrind: 1.8 % of a
// counter-30x200-loopback process), where this copy costs a few hundred.
//
//go:noinline
func growStack() {
	var room [stackRoom]byte
	touch(room[:])
}

// touch keeps growStack's array, which nothing reads, from being left out.
//
//go:noinline
func touch(b []byte) { b[0] = 1 }
