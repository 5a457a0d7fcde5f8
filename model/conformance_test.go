package model

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestConformanceRealRedis runs the same random stream of lock commands and
// of every script the project sends against a real redis-server and against
// lockstep nodes (Lua fast path on, and off), and requires identical replies.
//
// Real time passes for Redis, so the nodes' true time is the real time
// elapsed since the stream began, and TTLs are short (55 ms) with real
// sleeps of 10 ms or 120 ms. A command is only sent when no key sits within
// a few milliseconds of its expiry by the node's reckoning, so an expiry
// outcome never hangs on scheduling noise; PTTL is compared within a
// tolerance. Error replies are compared by their code (ERR, WRONGTYPE,
// NOSCRIPT): the texts differ between Redis and miniredis, most of all for
// errors raised inside Lua.
//
// Without redis-server the test skips, unless LOCKSTEP_REQUIRE_REDIS=1 (as
// in CI), where it fails.
func TestConformanceRealRedis(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("LOCKSTEP_REQUIRE_REDIS") == "1" {
			t.Fatal("redis-server not found and LOCKSTEP_REQUIRE_REDIS=1: install it (apt-get install redis-server)")
		}
		t.Skip("redis-server not found: skipping the conformance test against real Redis " +
			"(apt-get install redis-server to run it; LOCKSTEP_REQUIRE_REDIS=1 makes its absence a failure)")
	}
	rc := startRedis(t, bin)

	ops := 1200
	if testing.Short() {
		ops = 300
	}
	nodes := []*Node{
		NewNode(NodeConfig{Name: "fast"}),
		NewNode(NodeConfig{Name: "lua", LuaInterpreted: true}),
	}
	r := rand.New(rand.NewPCG(3, 11))
	clock := 1_767_225_600_000
	start := time.Now()
	compared := 0
	for step := range ops {
		switch x := r.IntN(100); {
		case x < 8:
			time.Sleep(10 * time.Millisecond)
		case x < 9:
			time.Sleep(120 * time.Millisecond)
		}
		args := conformanceArgs(r, &clock)
		// Wait out any expiry instant close to now: Redis and the node
		// each read their own clock, a few hundred µs apart.
		now := time.Since(start)
		for nearExpiry(nodes[0], now, 4*time.Millisecond) {
			time.Sleep(2 * time.Millisecond)
			now = time.Since(start)
		}
		want, err := rc.do(args...)
		if err != nil {
			t.Fatalf("step %d: redis: %v", step, err)
		}
		for _, n := range nodes {
			n.Do(now, "c", args...)
			got := rawReply(n, "c")
			if !sameReply(args, want, got) {
				t.Fatalf("step %d at %v: %s\nredis:    %q\n%-9s %q", step, now, showArgs(args), want, n.Name()+":", got)
			}
			n.TakeEffects()
		}
		compared++
	}
	t.Logf("%d commands, identical replies from redis-server and both nodes, in %v of real time",
		compared, time.Since(start).Round(time.Millisecond))
}

// nearExpiry reports whether some key of n expires within margin of true
// time now (the node's view at now-margin and now+margin differ).
func nearExpiry(n *Node, now, margin time.Duration) bool {
	a, b := n.Keys(now-margin), n.Keys(now+margin)
	if len(a) != len(b) {
		return true
	}
	for i := range a {
		if a[i].Key != b[i].Key {
			return true
		}
	}
	return false
}

// sameReply compares a Redis reply with a node's: bytes, except error codes
// only (see below) and PTTL within 10 ms.
func sameReply(args []string, want, got []byte) bool {
	if len(want) > 0 && len(got) > 0 && want[0] == '-' && got[0] == '-' {
		// A command failing inside a script is reported by Redis with its
		// own code (WRONGTYPE ...) and by miniredis as "ERR Error compiling
		// script ... WRONGTYPE ...": the code must appear.
		code := func(b []byte) string { return strings.Fields(string(b[1:]))[0] }
		script := strings.HasPrefix(strings.ToUpper(args[0]), "EVAL")
		return code(want) == code(got) || (script && strings.Contains(string(got), " "+code(want)+" "))
	}
	if strings.EqualFold(args[0], "PTTL") && len(want) > 0 && want[0] == ':' && len(got) > 0 && got[0] == ':' {
		w, _ := strconv.Atoi(strings.TrimSpace(string(want[1:])))
		g, _ := strconv.Atoi(strings.TrimSpace(string(got[1:])))
		if w < 0 || g < 0 {
			return w == g
		}
		return g-w <= 10 && w-g <= 10
	}
	return bytes.Equal(want, got)
}

// conformanceArgs is one random command: the single-instance lock commands
// and every script, on keys whose families meet now and then (wrong types).
func conformanceArgs(r *rand.Rand, clock *int) []string {
	ttls := []string{"55", "55", "30000"}
	tok := pick(r, []string{"A", "A", "B"})
	lock := pick(r, []string{"lock", "lock", "lock", "rlock"})
	switch x := r.IntN(100); {
	case x < 15:
		return []string{"SET", lock, tok, "NX", "PX", pick(r, ttls)}
	case x < 22:
		return []string{"GET", lock}
	case x < 26:
		return []string{"DEL", pick(r, []string{"lock", "rlock", "flock", "flock:queue"})}
	case x < 30:
		return []string{"PEXPIRE", lock, pick(r, ttls)}
	case x < 36:
		return []string{"PTTL", pick(r, []string{"lock", "rlock", "flock"})}
	case x < 38:
		return []string{"EXISTS", lock}
	case x < 39:
		return []string{"HSET", lock, "holder", tok}
	case x < 41:
		return []string{"LRANGE", "flock:queue", "0", "-1"}
	case x < 42:
		return []string{"ZRANGE", "flock:timeouts", "0", "-1", "WITHSCORES"}
	case x < 43:
		return []string{"SCRIPT", "FLUSH"}
	}
	s := fastScripts[r.IntN(len(fastScripts))]
	args := []string{"EVAL", s.src}
	if r.IntN(3) == 0 {
		args = []string{"EVALSHA", s.sha}
	}
	var keys, argv []string
	switch {
	case s.keys == 3:
		keys = []string{"flock", "flock:queue", "flock:timeouts"}
	case strings.HasPrefix(s.name, "reentrant"):
		keys = []string{lock}
	default:
		keys = []string{lock, "lock:fence"}[:s.keys]
	}
	switch s.argv {
	case 1:
		argv = []string{tok}
	case 2:
		argv = []string{tok, pick(r, ttls)}
	case 4:
		// The fair lock's client clock (ms) is an argument, so it need not
		// follow real time: it moves 40 ms per fair call and a waiter's
		// place lasts 0 to 200 ms of it, so places do expire.
		*clock += 40
		argv = []string{tok, pick(r, ttls), strconv.Itoa(*clock), strconv.Itoa(r.IntN(5) * 50)}
	}
	args = append(args, strconv.Itoa(len(keys)))
	args = append(args, keys...)
	return append(args, argv...)
}

// respConn is a minimal RESP2 client that returns replies as raw bytes.
type respConn struct {
	c net.Conn
	r *bufio.Reader
	w *bufio.Writer
}

func (rc *respConn) do(args ...string) ([]byte, error) {
	fmt.Fprintf(rc.w, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(rc.w, "$%d\r\n%s\r\n", len(a), a)
	}
	if err := rc.w.Flush(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	err := readRESP(rc.r, &out)
	return out.Bytes(), err
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
