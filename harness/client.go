package harness

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"time"
)

// Locker is the user's lock, as the harness drives it: once per hold, Lock
// (the library's own retries apply; an error is a failed acquire), then the
// critical section, then Unlock. One Locker serves all of a client's holds.
//
// Optional methods the harness looks for:
//
//	Token() int64      // the fencing token of the lock just taken: writes carry it
//	Until() time.Time  // when the library believes the lock expires (shown in the TUI)
//	Close() error      // io.Closer: called once at the end of the run
type Locker interface {
	Lock(ctx context.Context) error
	Unlock(ctx context.Context) error
}

// Tokener is a Locker with a fencing token: the resource refuses a write
// that carries a lower token than it has seen (scenarios with fencing).
type Tokener interface{ Token() int64 }

// Untiler is a Locker that can say when it believes its lock expires.
type Untiler interface{ Until() time.Time }

// Factory makes one client's Locker. It is called inside the bubble, once
// per client of the scenario, before the run starts; everything the Locker
// uses (driver clients, pools) must be made here, with c.Dial as their
// dialer (see package goredis).
type Factory func(c *Client) Locker

// Client is one of the scenario's clients, as the user's lock sees it.
type Client struct {
	d      *driver
	name   string
	ctx    context.Context
	cancel context.CancelFunc
	reqs   chan request // the next Lock or Unlock to make (one at a time)
	locker Locker
	dials  map[string]int // node name -> dials so far (conn names)
	dead   bool           // crashed: every connection is closed, dials fail
	sent   int            // commands sent through its connections
	dialed int            // dials made (bounded by MaxDials)
	locked int            // Lock calls that succeeded
}

// Name is the client's name in the scenario ("A").
func (c *Client) Name() string { return c.name }

// Key is the scenario's lock key.
func (c *Client) Key() string { return c.d.w.Cfg.Lock.Key }

// Nodes are the masters at the start, in order: the names Dial takes.
func (c *Client) Nodes() []string { return slices.Clone(c.d.masters) }

// Context is cancelled when the run ends (its duration, or every hold done).
func (c *Client) Context() context.Context { return c.ctx }

// ErrRefused is what a dial to a crashed node gives.
var ErrRefused = errors.New("connection refused")

// errTooMuch: a connection was sent more than MaxPending bytes unread.
var errTooMuch = fmt.Errorf("more than %d bytes written and not yet sent", MaxPending)

// Dial opens a RESP connection to node (one of Nodes: it names a shard)
// through the simulated network, reaching the shard's master at the time
// of the dial, as a client behind Sentinel discovery would; a connection
// keeps the node it reached, so after a failover old connections still
// talk to the old master (split brain is possible). The dial is a round
// trip: a crashed node refuses it, a partition is silence until the
// client's Context ends. Use DialContext to bound it.
func (c *Client) Dial(node string) (net.Conn, error) { return c.DialContext(c.ctx, node) }

// DialContext is Dial bounded by ctx (go-redis passes its DialTimeout).
func (c *Client) DialContext(ctx context.Context, node string) (net.Conn, error) {
	shard := slices.Index(c.d.masters, node)
	if shard < 0 {
		return nil, fmt.Errorf("lockstep harness: %s dials unknown node %q (the nodes are %v)", c.name, node, c.d.masters)
	}
	if a := active.Load(); a != nil && a != c.d {
		a.staleDial(c.name)
		return nil, &net.OpError{Op: "dial", Net: "lockstep", Addr: addr(node), Err: errRunOver}
	}
	dl := &dial{client: c, shard: shard, done: make(chan struct{})}
	c.d.request(dl)
	select {
	case <-dl.done:
		return dl.result()
	case <-ctx.Done():
		if cn, err := dl.abandon(); err == nil && cn != nil {
			return cn, nil // it arrived as we gave up: take it after all
		}
		return nil, &net.OpError{Op: "dial", Net: "lockstep", Addr: addr(node), Err: ctx.Err()}
	}
}
