package model

import (
	"errors"
	"github.com/lockstep-sim/lockstep/model/store"
	"strconv"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2/server"

	"github.com/lockstep-sim/lockstep/sim"
)

// Thread is one thread of a client: what a strategy's code runs on. Its
// methods block in simulated time (the kernel runs others meanwhile) and
// measure time with the client's own clock.
type Thread struct {
	c *Client
	p *sim.Proc
	// lastErr is the error of the thread's last command to a node (after
	// any driver resends): the watchdog tells "no answer" from "not ours".
	lastErr error
	// nodes is the storage of the thread's last list of masters (Redlock's
	// masters): a thread runs one round at a time, and a round's list is
	// not kept past it, so each attempt or renewal reuses it.
	nodes []*Node
}

// ErrTimeout is what a request gets when no reply came within the client's
// timeout: the request or the reply was lost, or the node is down. A lost
// reply means the command did run.
var ErrTimeout = errors.New("timeout")

// Client is the client the thread belongs to.
func (t *Thread) Client() *Client { return t.c }

// World is the world the thread lives in.
func (t *Thread) World() *World { return t.c.w }

// Wall is the client's wall clock now.
func (t *Thread) Wall() time.Duration { return t.c.clock.Wall(t.p.Now()) }

// Mono is the client's monotonic clock now.
func (t *Thread) Mono() time.Duration { return t.c.clock.Mono(t.p.Now()) }

// Sleep waits d as measured by the client's own clock.
func (t *Thread) Sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	w := t.c.w
	s := w.sleeps.Get()
	s.c, s.tk = t.c, t.p.Arm()
	s.timer.h = s
	t.c.armLocal(&s.timer, d)
	t.p.Park()
}

// sleep is one Sleep's wake-up: its timer and the ticket it wakes (a
// retrying client sleeps after every failed attempt). Sleeps are pooled per
// world: nothing stops a sleep's timer (a drift only moves it), so its one
// Fire is the end of it.
type sleep struct {
	timer localTimer
	c     *Client
	tk    sim.Ticket
}

// Fire returns the sleep to the pool, then wakes the thread, which may
// sleep again at once and reuse it: nothing touches s after the Wake.
func (s *sleep) Fire() {
	c, tk := s.c, s.tk
	c.forgetTimer(&s.timer)
	*s = sleep{}
	c.w.sleeps.Put(s)
	tk.Wake(nil)
}

type rpcResult struct {
	reply any
	err   error
}

// timedOut is the result a timeout wakes a caller with (shared: a pointer in
// an interface costs no allocation).
var timedOut = &rpcResult{nil, ErrTimeout}

// Call sends one command to a node and waits for its reply, or for the lock's
// request timeout by the client's clock. It copies args before it waits:
// their storage is the caller's again as soon as Call has begun.
func (t *Thread) Call(n *Node, op Op, args ...string) (any, error) {
	return t.CallTimeout(n, op, t.c.w.Cfg.Lock.Timeout, args...)
}

// CallTimeout is Call with an explicit timeout (Redlock's per-node timeout).
// With lock.driver retries, a command that timed out is sent again (see
// resends and sendAgain) before its caller sees the timeout.
func (t *Thread) CallTimeout(n *Node, op Op, timeout time.Duration, args ...string) (any, error) {
	call := t.c.w.newCall()
	call.node, call.op, call.sends = n, op, 1
	// A copy in the call, so the caller's variadic slice can stay on its
	// stack: most commands fit in argBuf.
	call.args = append(call.argBuf[:0], args...)
	call.to, call.timeout = n.Name(), timeout
	return t.call(call)
}

// sendAgain is the driver's resend of old's command to a node, which timed
// out: the same command in a new call, old let go. It is called from call
// rather than looped in CallTimeout, so that CallTimeout keeps nothing
// across the wait: its frame is on every request's stack.
func (t *Thread) sendAgain(old *rpcCall) (any, error) {
	t.c.traceResend(old.node, old.args, old.sends)
	call := t.c.w.newCall()
	call.node, call.op, call.sends = old.node, old.op, old.sends+1
	call.args = append(call.argBuf[:0], old.args...)
	call.to, call.timeout = old.to, old.timeout
	old.over(partWait)
	return t.call(call)
}

// rpc sends a request to process `to`, runs handle there on arrival, and
// sends its reply back. handle's third result false means no reply at all
// (a dead node). The caller waits for the reply or the timeout, whichever
// comes first; the other is ignored.
func (t *Thread) rpc(to string, timeout time.Duration, handle func() (any, error, bool)) (any, error) {
	call := t.c.w.newCall()
	call.handle = handle
	call.to, call.timeout = to, timeout
	return t.call(call)
}

// rpcCall is one request, its reply and its timeout. It is the handler of
// all three of its kernel events (through the rpcRequest, rpcReply and
// rpcTimeout views of it), so a call costs no allocation where closures
// cost several; every lock command goes through here.
//
// Calls are pooled per world (World.newCall). The request, the reply and
// the caller's wait (which owns the timeout) end in any order: a reply can
// land after the timeout woke the caller, the caller can return while the
// request is still on its way to a node. So a call is reused only once all
// of them are over: each outstanding part holds a bit of live, and the
// call goes back to the pool when the last bit is cleared. No kernel event
// can then still point at it: the request and the reply are each delivered
// or dropped exactly once (sim.Dropper), and the caller stops the timeout
// before it lets go (a stopped sim.Timer never fires).
//
// The timeout is held back from the kernel's queue (Client.armHeld) while
// the request or the reply in flight is sure to arrive before it is due:
// each arrival or drop decides again (holdTimeout, queueHeld), so the
// queue holds only the timeouts that may fire, at the very place
// (time, sequence) they were armed with, and a request answered in time
// never touches it.
type rpcCall struct {
	live callParts // parts not over yet; free when none is left

	c   *Client // the caller
	to  string  // the server's process name
	tk  sim.Ticket
	msg sim.Envelope // the request's kernel event, then the reply's

	// What runs at the other end: a command on node, or handle.
	node   *Node
	op     Op
	args   []string
	argBuf [6]string // args' storage when they fit: SET k v NX PX ttl
	sends  int       // the times a command has been sent, this one included
	handle func() (any, error, bool)

	timeout time.Duration
	timer   localTimer // the timeout, by the client's monotonic clock
	replied bool       // the reply arrived (the caller may not have run yet)
	res     rpcResult  // the reply
}

type (
	rpcRequest rpcCall // Fire: the request arrives at the server; Drop: it is lost
	rpcReply   rpcCall // Fire: the reply arrives at the client; Drop: it is lost
	rpcTimeout rpcCall // Fire: the client's timeout is due
)

// callParts are the parts of a call still in progress.
type callParts uint8

const (
	partWait    callParts = 1 << iota // the caller has not read the result yet
	partRequest                       // the request is in flight
	partReply                         // the reply is in flight
)

// newCall is a zero rpcCall from the world's pool.
func (w *World) newCall() *rpcCall {
	return w.calls.Get()
}

// over ends a part of the call; the last one returns it to the pool. The
// caller must not touch the call after this.
func (call *rpcCall) over(p callParts) {
	if call.live&p == 0 {
		panic("model: rpc call part ended twice (a stale event on a reused call)")
	}
	call.live &^= p
	if call.live == 0 {
		call.free()
	}
}

// free returns a finished call to the pool, ready for its next use. Only
// what the next use reads before it writes it is cleared: which end runs
// (node or handle), replied and the timer's done; call and armHeld set
// the rest. The args and the reply stay in the pooled call until then (a
// few strings): clearing the whole call, ~290 bytes, cost more than the
// rest of free every request. Its timer is off the client's list already
// (call forgot it).
func (call *rpcCall) free() {
	call.node, call.handle, call.replied, call.timer.done = nil, nil, false, false
	call.c.w.calls.Put(call)
}

// call sends the request call is set up for (its server's process in to,
// its timeout in timeout, which call sets to DefaultTimeout if it is not
// positive) and waits for its reply or its timeout. The caller fills the
// call, not call's arguments: this frame is on every request's stack.
func (t *Thread) call(call *rpcCall) (any, error) {
	c := t.c
	call.c = c
	call.tk = t.p.Arm()
	call.live = partWait | partRequest
	sent := c.w.Net.SendIn(&call.msg, c.Name, call.to, (*rpcRequest)(call))
	if call.timeout <= 0 {
		call.timeout = DefaultTimeout
	}
	call.timer.h = (*rpcTimeout)(call)
	c.armHeld(call, sent)
	r := t.p.Park().(*rpcResult)
	call.timer.Stop()
	// Off the list now, while it is still the newest timer (a reuse must
	// not list it twice): by the time the reply's event lets go of the
	// call, this thread has armed its next request's.
	c.forgetTimer(&call.timer)
	reply, err := r.reply, r.err // r may be call.res: read it before letting go
	if call.node != nil {
		t.lastErr = err
		if err == ErrTimeout && call.sends <= c.resends(call.op) {
			return t.sendAgain(call)
		}
	}
	call.over(partWait)
	return reply, err
}

// holdTimeout keeps the call's timeout held (armHeld) while the message
// just sent, which sent says the network took, is sure to land before the
// timeout is due: its arrival then comes first in the kernel's order, and
// decides again. Otherwise, or when nothing is in flight any more, the
// timeout is queued at its place now, as if it had been all along. So a
// reply in time, the common case, costs the queue nothing. It decides at
// the request's arrival (the reply's send); armHeld decides the same way
// for the request itself.
func (call *rpcCall) holdTimeout(sent bool, from, to string) {
	lt := &call.timer
	if !lt.held {
		return
	}
	w := call.c.w
	if sent && !w.queueTimeouts && lt.place.At()-w.Now() > w.Net.MaxDelay(from, to) {
		return
	}
	lt.queueHeld(w.K)
}

func (r *rpcRequest) Fire() {
	call := (*rpcCall)(r)
	w := call.c.w
	var ok bool
	if call.node != nil {
		call.res.reply, call.res.err, ok = w.serve(call.node, call.c.Name, call.c.id, call.op, call.args)
		if call.op == OpRelease && w.Cfg.Lock.Knobs.Notify == NotifyPubSub && w.releasedKey(call.node, call.res.reply) {
			w.publishRelease(call.node)
		}
	} else {
		call.res.reply, call.res.err, ok = call.handle()
	}
	sent := false
	if ok {
		call.live |= partReply
		sent = w.Net.SendIn(&call.msg, call.to, call.c.Name, (*rpcReply)(call))
	}
	call.holdTimeout(sent, call.to, call.c.Name)
	call.over(partRequest)
}

// Drop: the request is lost, so the timeout is due for sure.
func (r *rpcRequest) Drop() {
	call := (*rpcCall)(r)
	call.timer.queueHeld(call.c.w.K)
	call.over(partRequest)
}

func (r *rpcReply) Fire() {
	call := (*rpcCall)(r)
	call.replied = true
	// The caller may run now, or once Fire returns (sim.Ticket.Deliver):
	// partReply keeps the call.
	if !call.tk.Deliver(&call.res) && call.live&partWait != 0 {
		// The caller did not take the reply (paused, hung or dead): its
		// timeout still fires when due, as a queued one always did.
		call.timer.queueHeld(call.c.w.K)
	}
	call.over(partReply)
}

// Drop: the reply is lost, so the timeout is due for sure.
func (r *rpcReply) Drop() {
	call := (*rpcCall)(r)
	call.timer.queueHeld(call.c.w.K)
	call.over(partReply)
}

// Fire wakes the caller with ErrTimeout. The caller then stops the timer and
// may let go of the call (and reuse it) before Wake returns, so nothing
// here touches the call after Wake.
func (r *rpcTimeout) Fire() {
	call := (*rpcCall)(r)
	if call.replied {
		return // the reply came first; the thread has not read it yet (paused)
	}
	from := call.c.Name
	call.c.w.Tell(from, "timeout", "timeout", sim.S("node", call.to), sim.I("within_ns", int64(call.timeout)), sim.S("client", from))
	call.tk.Wake(timedOut)
}

// serve runs a client's command on node n as it arrives there (exec traces it);
// ok false means no reply at all (the node is down).
func (w *World) serve(n *Node, from string, id int, op Op, args []string) (reply any, err error, ok bool) {
	reply, err = w.exec(n, from, id, op, args)
	if err == ErrDown {
		return nil, nil, false
	}
	return reply, err, true
}

// DefaultTimeout is a request's timeout when lock.timeout is not set.
const DefaultTimeout = time.Second

// cmdLine is the "cmd" trace message, "<from>: <command> => <reply>", built
// in the world's reused buffer (World.line): one is written for every
// command a node runs.
func (w *World) cmdLine(from string, args []string, reply any, err error) []byte {
	b := append(w.line(), from...)
	b = append(b, ": "...)
	b = appendCommand(b, args)
	b = append(b, " => "...)
	return appendReply(b, reply, err)
}

func appendCommand(b []byte, args []string) []byte {
	for i, a := range args {
		if i > 0 {
			b = append(b, ' ')
		}
		if i == 1 && (strings.EqualFold(args[0], "EVAL")) {
			a = store.ScriptName(a)
		}
		b = append(b, a...)
	}
	return b
}

func appendReply(b []byte, reply any, err error) []byte {
	if err != nil {
		return append(append(b, "(error) "...), err.Error()...)
	}
	switch r := reply.(type) {
	case nil:
		return append(b, "(nil)"...)
	case string:
		b = append(b, '"')
		b = append(b, r...)
		return append(b, '"')
	case int:
		return strconv.AppendInt(append(b, "(integer) "...), int64(r), 10)
	case []any:
		b = append(b, '[')
		for i, x := range r {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendReply(b, x, nil)
		}
		return append(b, ']')
	case server.Simple:
		return append(b, strings.TrimSpace(strings.ToUpper(string(r)))...) // toString without fmt
	default:
		return append(b, strings.TrimSpace(strings.ToUpper(toString(r)))...)
	}
}

// master is the node this client believes is shard i's master.
func (t *Thread) master(i int) *Node { return t.c.w.masterFor(t.c, i) }
