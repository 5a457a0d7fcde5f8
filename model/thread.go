package model

import (
	"errors"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// Thread is one thread of a client: what a strategy's code runs on. Its
// methods block in simulated time (the kernel runs others meanwhile) and
// measure time with the client's own clock.
type Thread struct {
	c *Client
	p *sim.Proc
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
	tk := t.p.Arm()
	t.c.afterLocal(d, func() { tk.Wake(nil) })
	t.p.Park()
}

type rpcResult struct {
	reply any
	err   error
}

// Call sends one command to a node and waits for its reply, or for the lock's
// request timeout by the client's clock.
func (t *Thread) Call(n *Node, op Op, args ...string) (any, error) {
	return t.CallTimeout(n, op, t.c.w.Cfg.Lock.Timeout, args...)
}

// CallTimeout is Call with an explicit timeout (Redlock's per-node timeout).
func (t *Thread) CallTimeout(n *Node, op Op, timeout time.Duration, args ...string) (any, error) {
	w := t.c.w
	from := t.c.Name
	return t.rpc(n.Name(), timeout, func() (any, error, bool) {
		reply, err := w.exec(n, from, op, args)
		if err == ErrDown {
			return nil, nil, false
		}
		w.Emit(n.Name(), "cmd", "%s: %s => %s", from, formatCommand(args), formatReply(reply, err))
		return reply, err, true
	})
}

// rpc sends a request to process `to`, runs handle there on arrival, and
// sends its reply back. handle's third result false means no reply at all
// (a dead node). The caller waits for the reply or the timeout, whichever
// comes first; the other is ignored.
func (t *Thread) rpc(to string, timeout time.Duration, handle func() (any, error, bool)) (any, error) {
	w := t.c.w
	from := t.c.Name
	tk := t.p.Arm()
	replied := false
	w.Net.Send(from, to, func() {
		reply, err, ok := handle()
		if !ok {
			return
		}
		w.Net.Send(to, from, func() { replied = true; tk.Wake(rpcResult{reply, err}) })
	})
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	timer := t.c.afterLocal(timeout, func() {
		if replied {
			return // the reply came first; the thread has not read it yet (paused)
		}
		w.Emit(from, "timeout", "no reply from %s within %s by %s's clock", to, shortDur(timeout), from)
		tk.Wake(rpcResult{nil, ErrTimeout})
	})
	r := t.p.Park().(rpcResult)
	timer.Stop()
	return r.reply, r.err
}

// DefaultTimeout is a request's timeout when lock.timeout is not set.
const DefaultTimeout = time.Second

// formatCommand renders a command for the trace, eliding script bodies.
func formatCommand(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if i == 1 && (strings.EqualFold(args[0], "EVAL")) {
			a = scriptName(a)
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}

func formatReply(reply any, err error) string {
	if err != nil {
		return "(error) " + err.Error()
	}
	switch r := reply.(type) {
	case nil:
		return "(nil)"
	case string:
		return `"` + r + `"`
	case int:
		return "(integer) " + itoa(int64(r))
	case []any:
		s := make([]string, len(r))
		for i, x := range r {
			s[i] = formatReply(x, nil)
		}
		return "[" + strings.Join(s, ", ") + "]"
	default:
		return strings.TrimSpace(strings.ToUpper(toString(r)))
	}
}

// master is the node this client believes is shard i's master.
func (t *Thread) master(i int) *Node { return t.c.w.masterFor(t.c, i) }
