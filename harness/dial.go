package harness

import (
	"fmt"
	"net"
	"sync"
)

// dial is one Dial in flight: asked by a client goroutine, answered by the
// driver when the simulated round trip ends.
type dial struct {
	client *Client
	shard  int

	mu        sync.Mutex
	conn      *conn
	err       error
	answered  bool
	abandoned bool
	done      chan struct{}
}

// answer is the driver's reply; false when the dialer gave up meanwhile.
func (d *dial) answer(c *conn, err error) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.abandoned || d.answered {
		return false
	}
	d.conn, d.err, d.answered = c, err, true
	close(d.done)
	return true
}

func (d *dial) result() (net.Conn, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return nil, d.err
	}
	return d.conn, nil
}

// abandon gives up waiting; if the answer came meanwhile it is returned.
func (d *dial) abandon() (net.Conn, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.answered {
		if d.err != nil {
			return nil, d.err
		}
		return d.conn, nil
	}
	d.abandoned = true
	return nil, fmt.Errorf("abandoned")
}
