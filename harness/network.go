package harness

import (
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// errRunOver: a dial after the run ended, or through a Client of an
// earlier run (a Locker or driver client kept outside the factory).
var errRunOver = errors.New("lockstep harness: this client's run is over (a Locker or Redis client kept from an earlier run? make them in the factory)")

// errCrashed: a dial by a client the scenario crashed (fault crash), from
// a goroutine of its library that outlived it (a watchdog, a pool's
// redialer): the process is gone, so nothing it does reaches a node.
var errCrashed = errors.New("lockstep harness: this client has crashed (fault crash): its connections are closed and its dials fail")

// MaxDials bounds the dials one client may make in a run: a pool that
// reconnects after every fault makes a few hundred; a million is a leak.
const MaxDials = 1 << 20

var errTooManyDials = fmt.Errorf("lockstep harness: more than %d dials by one client in one run (a connection leak?)", MaxDials)

// startDial sends a dial through the simulated network to the current
// master of its shard and back: a crashed node refuses it, a lost message
// (partition, loss) leaves the dialer waiting until its context ends.
func (d *driver) startDial(dl *dial) {
	c := dl.client
	if c.dead {
		dl.answer(nil, &net.OpError{Op: "dial", Net: "lockstep", Err: errCrashed})
		return
	}
	if c.dialed >= MaxDials {
		dl.answer(nil, &net.OpError{Op: "dial", Net: "lockstep", Err: errTooManyDials})
		return
	}
	c.dialed++
	n := d.w.Shards[dl.shard].Master
	from, to := c.name, n.Name()
	d.w.Net.Send(from, to, func() {
		up := n.Up()
		d.w.Net.Send(to, from, func() {
			d.deliverTo(c, func() { d.finishDial(dl, n, up) })
		})
	})
}

// finishDial makes the connection (or the refusal) the dialer receives.
func (d *driver) finishDial(dl *dial, n *model.Node, up bool) {
	c := dl.client
	if c.dead || !up {
		if dl.answer(nil, &net.OpError{Op: "dial", Net: "lockstep", Addr: addr(n.Name()), Err: ErrRefused}) && !c.dead {
			d.w.Tell(c.name, "connect", "connect-refused", sim.S("client", c.name), sim.S("node", n.Name()))
		}
		return
	}
	c.dials[n.Name()]++
	cn := newConn(fmt.Sprintf("%s>%s#%d", c.name, n.Name(), c.dials[n.Name()]), c, n)
	if !dl.answer(cn, nil) {
		return // the dialer gave up meanwhile: nobody will use it
	}
	d.conns = append(d.conns, cn)
	d.w.Tell(c.name, "connect", "connect", sim.S("client", c.name), sim.S("node", n.Name()), sim.S("conn", cn.name))
}

// collect takes what each connection wrote, in the order the connections
// were made, and sends each whole command; a paused client's bytes wait.
func (d *driver) collect() bool {
	did := false
	keep := d.conns[:0]
	for _, cn := range d.conns {
		if d.isPaused(cn.client) {
			keep = append(keep, cn)
			continue
		}
		b, closed := cn.take()
		cn.srv = append(cn.srv, b...)
		for len(cn.srv) > 0 {
			args, rest, err := parseCommand(cn.srv)
			if errors.Is(err, errIncomplete) {
				break
			}
			if err != nil {
				d.w.Tell(cn.client.name, "protocol-error", "protocol-error", sim.S("client", cn.client.name), sim.S("error", err.Error()), sim.S("conn", cn.name))
				cn.hangUp()
				closed = true
				break
			}
			cn.srv = rest
			cn.client.sent++
			d.send(cn, args)
			did = true
		}
		if closed {
			did = true
			continue
		}
		keep = append(keep, cn)
	}
	clear(d.conns[len(keep):])
	d.conns = keep
	return did
}

// send carries one command to the connection's node through the simulated
// network, runs it there and carries the reply back.
func (d *driver) send(cn *conn, args []string) {
	c, n := cn.client, cn.node
	from, to := c.name, n.Name()
	d.w.Net.Send(from, to, func() {
		var b []byte
		back := func(b []byte) {
			d.w.Net.Send(to, from, func() {
				d.deliverTo(c, func() { cn.deliver(b) })
			})
		}
		if model.IsWait(args) {
			d.w.ExternalWait(n, from, args, func(acked any, err error) { back(appendReply(nil, acked, err)) })
			return
		}
		if msg := refusal(args); msg != "" {
			d.w.Tell(to, "refused", "unsupported-command", sim.S("client", from), sim.S("command", strings.ToUpper(args[0])))
			b = appendError(nil, msg)
		} else {
			reply, err := d.w.ExecExternal(n, from, args)
			if errors.Is(err, model.ErrDown) {
				return // no reply; the connection is closed (hangUps)
			}
			b = appendReply(nil, reply, err)
		}
		back(b)
	})
}

// hangUps closes the connections a crash ended: the client's own, or those
// to a node that is down (its client reads EOF, as from a closed socket).
func (d *driver) hangUps() bool {
	did := false
	for _, c := range d.clients {
		if !c.dead && d.w.Client(c.name).State() == model.StateCrashed {
			c.dead = true
			did = true
		}
	}
	keep := d.conns[:0]
	for _, cn := range d.conns {
		if cn.client.dead || !cn.node.Up() {
			cn.hangUp()
			did = true
			continue
		}
		keep = append(keep, cn)
	}
	clear(d.conns[len(keep):])
	d.conns = keep
	return did
}
