package redis

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// respConn is a minimal RESP2 client that returns replies as raw bytes.
type respConn struct {
	c net.Conn
	r *bufio.Reader
	w *bufio.Writer
}

// do sends one command and returns its reply.
func (rc *respConn) do(args ...string) ([]byte, error) {
	rc.write(args)
	if err := rc.w.Flush(); err != nil {
		return nil, err
	}
	return rc.read()
}

// doTimed sends a command and TIME in one write and returns the command's
// reply and the server's clock just after it ran: Redis runs a
// connection's commands in order, so the command read its clock before.
func (rc *respConn) doTimed(args ...string) ([]byte, time.Duration, error) {
	rc.write(args)
	rc.write([]string{"TIME"})
	if err := rc.w.Flush(); err != nil {
		return nil, 0, err
	}
	reply, err := rc.read()
	if err != nil {
		return nil, 0, err
	}
	at, err := rc.readTime()
	return reply, at, err
}

// time is the server's clock (TIME) since the Unix epoch.
func (rc *respConn) time() (time.Duration, error) {
	rc.write([]string{"TIME"})
	if err := rc.w.Flush(); err != nil {
		return 0, err
	}
	return rc.readTime()
}

func (rc *respConn) write(args []string) {
	fmt.Fprintf(rc.w, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(rc.w, "$%d\r\n%s\r\n", len(a), a)
	}
}

func (rc *respConn) read() ([]byte, error) {
	var out bytes.Buffer
	err := readRESP(rc.r, &out)
	return out.Bytes(), err
}

// readTime reads TIME's reply: seconds and microseconds, as bulk strings.
func (rc *respConn) readTime() (time.Duration, error) {
	b, err := rc.read()
	if err != nil {
		return 0, err
	}
	// *2 $len sec $len usec, one per line.
	f := strings.Split(strings.TrimSuffix(string(b), "\r\n"), "\r\n")
	if len(f) != 5 || f[0] != "*2" {
		return 0, fmt.Errorf("TIME reply %q: want two bulk strings", b)
	}
	sec, err1 := strconv.ParseInt(f[2], 10, 64)
	usec, err2 := strconv.ParseInt(f[4], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("TIME reply %q: not seconds and microseconds", b)
	}
	return time.Duration(sec)*time.Second + time.Duration(usec)*time.Microsecond, nil
}

// readRESP copies one complete reply from r to out.
func readRESP(r *bufio.Reader, out *bytes.Buffer) error {
	line, err := r.ReadBytes('\n')
	if err != nil {
		return err
	}
	out.Write(line)
	if len(line) < 3 {
		return fmt.Errorf("short RESP line %q", line)
	}
	switch line[0] {
	case '+', '-', ':':
		return nil
	case '$':
		n, err := strconv.Atoi(string(line[1 : len(line)-2]))
		if err != nil || n < 0 {
			return err
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return err
		}
		out.Write(buf)
		return nil
	case '*':
		n, err := strconv.Atoi(string(line[1 : len(line)-2]))
		if err != nil {
			return err
		}
		for range max(n, 0) {
			if err := readRESP(r, out); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unexpected RESP line %q", line)
}

// startRedis runs redis-server on a free loopback port, without
// persistence, for the duration of the test.
func startRedis(t *testing.T, bin string) *respConn {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	cmd := exec.Command(bin, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// Polling for a server to come up: bounded, and nothing is measured.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err == nil {
			rc := &respConn{c: c, r: bufio.NewReader(c), w: bufio.NewWriter(c)}
			t.Cleanup(func() { c.Close() })
			if r, err := rc.do("PING"); err == nil && string(r) == "+PONG\r\n" {
				return rc
			}
			c.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server on port %s did not answer: %v\n%s", port, err, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
