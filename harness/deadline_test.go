package harness_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/harness"
)

// rawReader dials redis-1 at once, waits until the partition has cut it
// off, then sends a SET with a read deadline and reads: only the deadline
// can end the read.
type rawReader struct {
	c       *harness.Client
	wait    time.Duration // the read deadline, from the write
	err     error
	elapsed time.Duration
}

func (l *rawReader) Lock(ctx context.Context) error {
	cn, err := l.c.DialContext(ctx, l.c.Nodes()[0])
	if err != nil {
		return err
	}
	defer cn.Close()
	time.Sleep(1500 * time.Millisecond) // the cut begins at 1s
	start := time.Now()
	if err := cn.SetReadDeadline(start.Add(l.wait)); err != nil {
		return err
	}
	if _, err := cn.Write([]byte("*3\r\n$3\r\nSET\r\n$6\r\nlock:t\r\n$1\r\nA\r\n")); err != nil {
		return err
	}
	_, l.err = cn.Read(make([]byte, 64))
	l.elapsed = time.Since(start)
	return l.err
}

func (l *rawReader) Unlock(context.Context) error { return nil }

// A read deadline ends a read that nothing answers, at the deadline on
// the bubble's clock, with an error net.Error calls a timeout; the harness
// keeps that deadline itself (no timer of the reader's), so a driver that
// forgot it would leave the read waiting to the end of the run.
func TestReadDeadlineTimesOut(t *testing.T) {
	var l *rawReader
	harness.Run(t, harness.Config{File: testFile, Scenario: "read-deadline", Expect: "acquired: 0"},
		func(c *harness.Client) harness.Locker {
			l = &rawReader{c: c, wait: 300 * time.Millisecond}
			return l
		})
	var ne net.Error
	if !errors.As(l.err, &ne) || !ne.Timeout() || !errors.Is(l.err, errors.Unwrap(l.err)) {
		t.Fatalf("the read ended with %v, not a timeout", l.err)
	}
	if l.elapsed != l.wait {
		t.Errorf("the read timed out after %s of bubble time, its deadline was %s", l.elapsed, l.wait)
	}
}
