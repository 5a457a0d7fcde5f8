package redis

import (
	"bytes"
	"fmt"
	"github.com/lockstep-sim/lockstep/model/store"
	"math/rand/v2"
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
// Real time passes for Redis, so no outcome may hang on how long a step
// takes (a busy machine, the race detector). Three rules see to it:
//   - The nodes' true time is the server's own clock (TIME), read by a
//     TIME pipelined right after each command: never before the instant
//     Redis ran it, so a TTL never ends earlier on the nodes than on Redis.
//     A TIME read before the command brackets that instant.
//   - A TTL is either short (5 ms) or long (1 h, beyond any run): a long key
//     is alive at every step. Before each command the test waits, reading
//     TIME, until every short key is past its expiry by a margin on the
//     server's clock, so it has expired for Redis and for the nodes alike.
//     No key is ever near its expiry when a command runs.
//   - PTTL is compared within the largest bracket measured so far (plus
//     rounding): the only reply that measures time.
//
// Error replies are compared by their code (ERR, WRONGTYPE, NOSCRIPT): the
// texts differ between Redis and miniredis, most of all for errors raised
// inside Lua.
//
// The "stall" subtest proves the independence: on every other step it
// sleeps 50 ms between reading the clock and sending the command (the
// variable delay that made the old real-time version fail), before each
// step it sleeps 0 to 5.25 ms (so waits for expiry start on every side of
// one), and every step is still compared. LOCKSTEP_CONFORMANCE_SLOW=50ms
// applies such stalls to the long run too.
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
	slow := conformanceSlow(t)

	ops, stallOps := 1200, 200
	if testing.Short() {
		ops, stallOps = 300, 60
	}
	t.Run("steady", func(t *testing.T) { runConformance(t, rc, ops, slow) })
	t.Run("stall", func(t *testing.T) { runConformance(t, rc, stallOps, 50*time.Millisecond) })
}

// conformanceSlow is LOCKSTEP_CONFORMANCE_SLOW as a duration (0 if unset),
// bounded so that a typo cannot hang the test for hours.
func conformanceSlow(t *testing.T) time.Duration {
	v := os.Getenv("LOCKSTEP_CONFORMANCE_SLOW")
	if v == "" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > time.Second {
		t.Fatalf("LOCKSTEP_CONFORMANCE_SLOW=%q: want a duration from 0 to 1s (e.g. 50ms)", v)
	}
	return d
}

// Conformance TTLs and margins. A short key is waited out before the next
// command; a long one outlives any run (go test's own timeout is shorter).
const (
	confShortTTL = "5"
	confLongTTL  = "3600000"
	// confShort tells the two apart by the TTL a key has left.
	confShort = time.Minute
	// confMargin is how far past its expiry a short key must be on the
	// server's clock: more than Redis's millisecond rounding.
	confMargin = 2 * time.Millisecond
	// confMaxWait bounds one wait for short keys to expire.
	confMaxWait = 10 * time.Second
	// confRecent is how many steps a failure shows before the failing one.
	confRecent = 8
)

// conformance is one run: the server, the nodes, and what was measured.
type conformance struct {
	t     *testing.T
	rc    *respConn
	nodes []*Node
	epoch time.Duration // the server's clock when the run began
	last  time.Duration // the nodes' clock: the instant of the last command
	// bracket is the longest time measured between the clock read before a
	// command and the one after it: how far apart Redis's and the nodes'
	// instants for one command can be.
	bracket time.Duration
	recent  []string // the last confRecent steps, for a failure's message
	waits   int      // steps that first waited for short keys to expire
}

// runConformance compares ops random commands, stalling every other one by
// stall between the clock read and the command (and, with a stall, sweeping
// a short sleep before each), and fails unless every one of them was
// compared.
func runConformance(t *testing.T, rc *respConn, ops int, stall time.Duration) {
	for _, cmd := range [][]string{{"FLUSHALL"}, {"SCRIPT", "FLUSH"}} {
		if _, err := rc.do(cmd...); err != nil {
			t.Fatalf("redis %s: %v", cmd[0], err)
		}
	}
	c := &conformance{t: t, rc: rc, nodes: []*Node{
		NewNode(NodeConfig{Name: "fast"}),
		NewNode(NodeConfig{Name: "lua", LuaInterpreted: true}),
	}}
	c.epoch = c.serverTime()
	r := rand.New(rand.NewPCG(3, 11))
	clock := 1_767_225_600_000
	compared := 0
	for step := range ops {
		args := conformanceArgs(r, &clock)
		if stall > 0 {
			// Some time after the last command, swept across the short
			// TTL, so that the wait below starts on every side of an
			// expiry: before it, within Redis's millisecond, after it.
			time.Sleep(time.Duration(step%8) * 750 * time.Microsecond)
		}
		c.settle(step)
		compared += c.step(step, args, stall*time.Duration(step%2))
	}
	if compared != ops*len(c.nodes) {
		t.Fatalf("compared %d replies, want %d steps × %d nodes", compared, ops, len(c.nodes))
	}
	// The short TTLs must have been exercised, or the test proves little.
	if c.waits < ops/20 {
		t.Fatalf("only %d of %d steps waited for a short key to expire", c.waits, ops)
	}
	t.Logf("%d commands, identical replies from redis-server and both nodes; %d waited for short keys; "+
		"longest clock bracket %v; %v of server time",
		ops, c.waits, c.bracket, c.now().Round(time.Millisecond))
}

// step sends one command to Redis and to every node and compares the
// replies; it returns how many node replies it compared (it fails the test
// on a difference).
func (c *conformance) step(step int, args []string, stall time.Duration) int {
	t0 := c.now()
	if stall > 0 {
		time.Sleep(stall) // the delay under test, not a wait for anything
	}
	want, at, err := c.rc.doTimed(args...)
	if err != nil {
		c.t.Fatalf("step %d: redis: %v", step, err)
	}
	t1 := at - c.epoch
	c.last = t1
	c.bracket = max(c.bracket, t1-t0)
	compared := 0
	for _, n := range c.nodes {
		n.Do(t1, "c", args...)
		got := rawReply(n, "c")
		if !sameReply(args, want, got, c.bracket+confMargin) {
			c.t.Fatalf("step %d at %v: %s\nredis:    %q\n%-9s %q\nthe steps before:\n%s",
				step, t1, showArgs(args), want, n.Name()+":", got, strings.Join(c.recent, "\n"))
		}
		n.TakeEffects()
		compared++
	}
	c.remember(fmt.Sprintf("step %d at %v: %s -> %q", step, t1, showArgs(args), want))
	return compared
}

// remember keeps line among the last confRecent steps.
func (c *conformance) remember(line string) {
	if len(c.recent) == confRecent {
		c.recent = c.recent[1:]
	}
	c.recent = append(c.recent, line)
}

// settle waits until every key with a short TTL on any node has expired by
// confMargin on the server's clock, so the next command finds it gone on
// Redis (which reads its clock later still) and on the nodes (which are
// given a later reading). It polls TIME: the condition, not a guess.
//
// The keys are read at the last command's instant, not now: a key may have
// expired on a node since then and yet live on Redis for up to a
// millisecond more (Redis keeps a key through the millisecond of its
// expiry), and it must be waited out all the same.
func (c *conformance) settle(step int) {
	until := time.Duration(-1)
	for _, n := range c.nodes {
		for _, k := range n.Keys(c.last) {
			if k.TTL >= 0 && k.TTL < confShort {
				until = max(until, c.last+k.TTL+confMargin)
			}
		}
	}
	if until < 0 {
		return
	}
	c.waits++
	now := c.now()
	for deadline := now + confMaxWait; now <= until; now = c.now() {
		if now > deadline {
			c.t.Fatalf("step %d: short keys still alive after %v of server time", step, confMaxWait)
		}
		time.Sleep(until - now + 100*time.Microsecond)
	}
}

// now is the server's clock since the run began.
func (c *conformance) now() time.Duration { return c.serverTime() - c.epoch }

// serverTime is the server's clock (TIME) since the Unix epoch.
func (c *conformance) serverTime() time.Duration {
	d, err := c.rc.time()
	if err != nil {
		c.t.Fatalf("redis TIME: %v", err)
	}
	return d
}

// sameReply compares a Redis reply with a node's: bytes, except error codes
// only (see below) and PTTL within tol.
func sameReply(args []string, want, got []byte, tol time.Duration) bool {
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
		ms := int(tol / time.Millisecond)
		return g-w <= ms && w-g <= ms
	}
	return bytes.Equal(want, got)
}

// conformanceArgs is one random command: the single-instance lock commands
// and every script, on keys whose families meet now and then (wrong types).
func conformanceArgs(r *rand.Rand, clock *int) []string {
	ttls := []string{confShortTTL, confShortTTL, confLongTTL}
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
	return confScriptArgs(r, clock, tok, lock, ttls)
}

// confScriptArgs is an EVAL or EVALSHA of a random script with fitting keys.
func confScriptArgs(r *rand.Rand, clock *int, tok, lock string, ttls []string) []string {
	s := store.Scripts()[r.IntN(len(store.Scripts()))]
	args := []string{"EVAL", s.Src}
	if r.IntN(3) == 0 {
		args = []string{"EVALSHA", s.SHA}
	}
	var keys, argv []string
	switch {
	case s.Keys == 3:
		keys = []string{"flock", "flock:queue", "flock:timeouts"}
	case strings.HasPrefix(s.Name, "reentrant"):
		keys = []string{lock}
	default:
		keys = []string{lock, "lock:fence"}[:s.Keys]
	}
	switch s.Argv {
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
