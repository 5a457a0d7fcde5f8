package sim

import "math"

// A Proc that waits runs the kernel's loop itself (Kernel.park), instead of
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
// (Ticket.Deliver); it may then drive in turn, above the one whose loop
// woke it: the kernel's chain (Kernel.depth). A wake of a Proc in the
// chain runs it once the handler returns, and every Proc above it in the
// chain hands control back down to it first (Kernel.cut). So a handler
// must do nothing after its Wake that the woken code would have seen or
// changed (model's rpcReply asks Deliver whether the caller took its reply
// instead of reading what the caller did with it), and a Proc's code must
// never wake a Proc that drives: a park that another Proc's code may end
// is armed with ArmShared, and never drives (wrongWake panics for either
// mistake).

// noCut is Kernel.cut and woke when no Proc in the chain has been woken.
const noCut = math.MaxInt

// notDriving is Proc.link when the Proc is not in the kernel's chain.
const notDriving = -1

// park is Park's wait. A Proc an event resumed (drives) runs the events
// due while it waits, and returns the value it was woken with as soon as
// the event that woke it returns; otherwise, or once the run's bounds are
// reached or a Proc under it in the chain has been woken, it hands control
// back to whoever resumed it, as every Park once did, and returns the value
// of the wake that resumes it. A kill resumes it through the coroutine's
// stop (Proc.kill), where yield reports false.
func (k *Kernel) park(p *Proc) any {
	if p.drives && k.left > 0 { // a Step's one event is over: nothing to drive
		i := k.depth
		k.depth, p.link, k.inProc = i+1, i, false
		k.loop(i)
		k.depth, p.link = i, notDriving // those above it handed back already
		if k.cut == i {
			k.cut = noCut
		}
		if k.woke == i {
			k.woke = noCut
		}
		if !p.parked {
			if p.dying {
				panic(killed{}) // a kill while it drove (Proc.kill)
			}
			k.inProc = true
			return p.wakeV
		}
	}
	if !p.yield(struct{}{}) {
		panic(killed{})
	}
	return p.wakeV // kept until the next wake replaces it: one value a Proc
}

// wrongWake panics for a wake that would run p, or the Proc in the chain
// woken before it, out of order (see the top of this file): a wake of a
// Proc in the chain by a Proc's code, which runs above it; a second wake by
// an event after one of a Proc in the chain, which would run only once the
// event returns, of a Proc that would run before it.
//
//go:noinline
func (k *Kernel) wrongWake(p *Proc) {
	if k.inProc {
		panic("sim: a process's code woke " + p.name + ", which runs the kernel's loop (a park another process may end is armed with ArmShared)")
	}
	panic("sim: an event woke " + p.name + " after waking a process that runs the kernel's loop, which would run second")
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
