package harness

import (
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/lockstep-sim/lockstep/model"
)

// conn is the client end of one simulated RESP connection; the driver is
// the other end. What the client writes waits in out until the driver,
// with every goroutine of the bubble settled, collects it (collect); what
// the node answers is put in by the driver when the reply arrives through
// the simulated network. Deadlines run on the bubble's clock.
type conn struct {
	name   string // "A>redis-1#2": client, node reached, how many dials of that pair
	client *Client
	node   *model.Node // the node reached at dial time (it keeps it across failovers)

	mu       sync.Mutex
	out      []byte // written by the client, not yet collected
	in       []byte // delivered, not yet read
	srv      []byte // collected, not yet a whole command (driver only)
	closed   bool   // closed by the client
	eof      bool   // closed by the node's side (crash, the client crashed, the run ended)
	rdl, wdl time.Time
	sig      chan struct{} // a delivery, a close, or the read deadline (the driver's) happened
	// reading is set while a Read waits, with the deadline it waits for
	// (readDL, zero: none): the driver signals it when the deadline passes
	// (expireReads), so a read costs no timer of its own.
	reading bool
	readDL  time.Time
}

func newConn(name string, c *Client, n *model.Node) *conn {
	return &conn{name: name, client: c, node: n, sig: make(chan struct{}, 1)}
}

func (c *conn) signal() {
	select {
	case c.sig <- struct{}{}:
	default:
	}
}

// deliver appends a reply (driver).
func (c *conn) deliver(b []byte) {
	c.mu.Lock()
	c.in = append(c.in, b...)
	c.mu.Unlock()
	c.signal()
}

// hangUp closes the node's side (driver): reads drain what arrived, then EOF.
func (c *conn) hangUp() {
	c.mu.Lock()
	c.eof = true
	c.mu.Unlock()
	c.signal()
}

// take hands the driver what was written since the last call, and whether
// the client closed the connection.
func (c *conn) take() ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.out
	c.out = nil
	return b, c.closed
}

// timeoutError is what a read past its deadline returns, as net does.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }
func (timeoutError) Unwrap() error   { return os.ErrDeadlineExceeded }

func (c *conn) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: "lockstep", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}

// Read blocks until a reply arrives, the deadline passes or a side closes.
func (c *conn) Read(b []byte) (int, error) {
	for {
		c.mu.Lock()
		switch {
		case c.closed:
			c.mu.Unlock()
			return 0, c.opError("read", net.ErrClosed)
		case len(c.in) > 0:
			n := copy(b, c.in)
			c.in = c.in[n:]
			c.mu.Unlock()
			return n, nil
		case c.eof:
			c.mu.Unlock()
			return 0, io.EOF
		}
		if !c.rdl.IsZero() && !time.Now().Before(c.rdl) {
			c.mu.Unlock()
			return 0, c.opError("read", timeoutError{})
		}
		c.reading, c.readDL = true, c.rdl
		c.mu.Unlock()
		<-c.sig
		c.mu.Lock()
		c.reading = false
		c.mu.Unlock()
	}
}

// readDeadline is the deadline a waiting Read has (driver), if any.
func (c *conn) readDeadline() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.readDL, c.reading && !c.readDL.IsZero()
}

// Write queues b for the driver; it never blocks (the simulated network
// has no flow control), but it fails once either side closed.
func (c *conn) Write(b []byte) (int, error) {
	c.mu.Lock()
	switch {
	case c.closed:
		c.mu.Unlock()
		return 0, c.opError("write", net.ErrClosed)
	case c.eof:
		c.mu.Unlock()
		return 0, c.opError("write", io.ErrClosedPipe)
	case !c.wdl.IsZero() && !time.Now().Before(c.wdl):
		c.mu.Unlock()
		return 0, c.opError("write", timeoutError{})
	case len(c.out)+len(b) > MaxPending:
		c.mu.Unlock()
		return 0, c.opError("write", errTooMuch)
	}
	c.out = append(c.out, b...)
	c.mu.Unlock()
	c.client.d.poke()
	return len(b), nil
}

// Close closes the client's side; the driver forgets the connection at its
// next collection.
func (c *conn) Close() error {
	c.mu.Lock()
	was := c.closed
	c.closed = true
	c.mu.Unlock()
	if was {
		return c.opError("close", net.ErrClosed)
	}
	c.signal()
	c.client.d.poke()
	return nil
}

type addr string

func (a addr) Network() string { return "lockstep" }
func (a addr) String() string  { return string(a) }

// LocalAddr is the client's name.
func (c *conn) LocalAddr() net.Addr { return addr(c.client.name) }

// RemoteAddr is the name of the node reached.
func (c *conn) RemoteAddr() net.Addr { return addr(c.node.Name()) }

// SetDeadline sets both deadlines.
func (c *conn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	c.rdl, c.wdl = t, t
	c.mu.Unlock()
	c.signal() // a reader re-reads its deadline
	return nil
}

// SetReadDeadline sets the read deadline, on the bubble's clock.
func (c *conn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	c.rdl = t
	c.mu.Unlock()
	c.signal()
	return nil
}

// SetWriteDeadline sets the write deadline (a write never blocks, so only
// one already past matters).
func (c *conn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	c.wdl = t
	c.mu.Unlock()
	return nil
}
