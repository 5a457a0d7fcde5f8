package redis

import (
	"github.com/lockstep-sim/lockstep/model/store"

	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2/server"
)

const (
	msec = time.Millisecond
	sec  = time.Second
)

// do runs a command and fails the test on an error reply.
func nodeDo(t testing.TB, n *Node, now time.Duration, args ...string) any {
	t.Helper()
	r, err := n.Do(now, "c", args...)
	if err != nil {
		t.Fatalf("%v at %v: %v", args, now, err)
	}
	return r
}

// present reports whether GET key finds it at true time now.
func nodePresent(t testing.TB, n *Node, now time.Duration, key string) bool {
	t.Helper()
	return nodeDo(t, n, now, "GET", key) != nil
}

func nodePTTL(t testing.TB, n *Node, now time.Duration, key string) int {
	t.Helper()
	return nodeDo(t, n, now, "PTTL", key).(int)
}

// lockAt sets lock:x with PX ttl at true time at.
func nodeLockAt(t testing.TB, n *Node, at time.Duration, ttl time.Duration) {
	t.Helper()
	px := fmt.Sprint(ttl.Milliseconds())
	if r := nodeDo(t, n, at, "SET", "lock:x", "A", "NX", "PX", px); r != server.Simple("OK") {
		t.Fatalf("SET NX PX = %#v", r)
	}
}

// expiresAt checks the key is present at exactly `at` and gone 1ns later,
// on two fresh nodes built by mk (reading it at `at` must not change when it
// goes).
func nodeExpiresAt(t *testing.T, mk func() *Node, at time.Duration) {
	t.Helper()
	n := mk()
	if !nodePresent(t, n, at, "lock:x") {
		t.Errorf("lock:x gone at %v, want present until then", at)
	}
	if nodePresent(t, n, at+1, "lock:x") {
		t.Errorf("lock:x present at %v+1ns, want gone", at)
	}
	n = mk()
	if nodePresent(t, n, at+1, "lock:x") {
		t.Errorf("fresh node: lock:x present at %v+1ns", at)
	}
}

func TestNodeRedisBoundary(t *testing.T) {
	mk := func() *Node {
		n := NewNode(NodeConfig{Name: "redis-1"})
		nodeLockAt(t, n, 1*msec, 30*sec)
		return n
	}
	nodeExpiresAt(t, mk, 30*sec+1*msec)
	n := mk()
	if got := nodePTTL(t, n, 30*sec+1*msec, "lock:x"); got != 0 {
		t.Errorf("PTTL at the expiry instant = %d, want 0", got)
	}
	// A SET NX at the very instant of expiry still loses, as in Redis.
	if r, _ := n.Do(30*sec+1*msec, "b", "SET", "lock:x", "B", "NX", "PX", "30000"); r != nil {
		t.Errorf("SET NX at the expiry instant = %#v, want nil", r)
	}
	if r, _ := n.Do(30*sec+1*msec+1, "b", "SET", "lock:x", "B", "NX", "PX", "30000"); r != server.Simple("OK") {
		t.Errorf("SET NX 1ns after expiry = %#v, want OK", r)
	}
}

func TestNodeForwardJumpExpiresEarly(t *testing.T) {
	// A forward jump of 10s makes the key expire 10s early in true time.
	mk := func() *Node {
		n := NewNode(NodeConfig{Name: "redis-1"})
		nodeLockAt(t, n, 1*msec, 30*sec)
		if ex := n.JumpClock(1*sec, 10*sec); len(ex) != 0 {
			t.Fatalf("10s jump expired %v", ex)
		}
		return n
	}
	n := mk()
	if got := nodePTTL(t, n, 1*sec, "lock:x"); got != 19001 {
		t.Errorf("PTTL after +10s jump = %d, want 19001", got)
	}
	nodeExpiresAt(t, mk, 20*sec+1*msec)

	// A jump past the expiry removes the key at once and says how early.
	n = NewNode(NodeConfig{Name: "redis-1"})
	nodeLockAt(t, n, 1*msec, 30*sec)
	ex := n.JumpClock(10*sec+900*msec, 20*sec)
	want := []Expiry{{Key: "lock:x", Early: 19101 * msec}}
	if !reflect.DeepEqual(ex, want) {
		t.Fatalf("JumpClock = %v, want %v", ex, want)
	}
	if n.Keys(10*sec+900*msec) != nil && len(n.Keys(10*sec+900*msec)) != 0 {
		t.Fatalf("key still there: %v", n.Keys(10*sec+900*msec))
	}
	effs := n.TakeEffects()
	if len(effs) != 2 || !effs[1].Deleted || effs[1].At != 10*sec+900*msec {
		t.Fatalf("effects = %v, want the SET then the expiry deletion", effs)
	}
}

func TestNodeBackwardJumpExtendsLife(t *testing.T) {
	mk := func() *Node {
		n := NewNode(NodeConfig{Name: "redis-1"})
		nodeLockAt(t, n, 1*msec, 30*sec)
		n.JumpClock(1*sec, -10*sec)
		return n
	}
	n := mk()
	if got := nodePTTL(t, n, 1*sec, "lock:x"); got != 39001 {
		t.Errorf("PTTL after -10s jump = %d, want 39001", got)
	}
	// TIME follows the wall clock: 1s - 10s after the epoch.
	tm := nodeDo(t, n, 1*sec, "TIME").([]any)
	if want := fmt.Sprint(store.Epoch.Add(-9 * sec).Unix()); tm[0] != want {
		t.Errorf("TIME = %v, want %s", tm, want)
	}
	nodeExpiresAt(t, mk, 40*sec+1*msec)
}

func TestNodeDrift(t *testing.T) {
	// At 1.1x a 11s TTL lasts 10s of true time; at 0.5x a 11s TTL lasts 22s.
	for _, tc := range []struct {
		rate float64
		want time.Duration
	}{{1.1, 10 * sec}, {0.5, 22 * sec}, {1.25, 8800 * msec}} {
		mk := func() *Node {
			n := NewNode(NodeConfig{Name: "redis-1"})
			n.SetClockRate(0, tc.rate)
			nodeLockAt(t, n, 0, 11*sec)
			return n
		}
		t.Run(fmt.Sprint(tc.rate), func(t *testing.T) { nodeExpiresAt(t, mk, tc.want) })
	}
	// Drift that starts while the key lives: 5s at 1x, then 2x.
	mk := func() *Node {
		n := NewNode(NodeConfig{Name: "redis-1"})
		nodeLockAt(t, n, 0, 11*sec)
		n.SetClockRate(5*sec, 2)
		return n
	}
	n := mk()
	if got := nodePTTL(t, n, 6*sec, "lock:x"); got != 4000 {
		t.Errorf("PTTL after 5s at 1x and 1s at 2x = %d, want 4000", got)
	}
	nodeExpiresAt(t, mk, 8*sec)
}

func TestNodeMonotonicIgnoresJumpsNotDrift(t *testing.T) {
	mk := func() *Node {
		n := NewNode(NodeConfig{Name: "redis-1", Monotonic: true})
		nodeLockAt(t, n, 1*msec, 30*sec)
		if ex := n.JumpClock(1*sec, 60*sec); len(ex) != 0 {
			t.Fatalf("monotonic node expired %v on a jump", ex)
		}
		n.JumpClock(2*sec, -5*sec)
		return n
	}
	n := mk()
	// TIME still shows the wall clock: 2s + 55s.
	tm := nodeDo(t, n, 2*sec, "TIME").([]any)
	if want := fmt.Sprint(store.Epoch.Add(57 * sec).Unix()); tm[0] != want {
		t.Errorf("TIME = %v, want %s", tm, want)
	}
	nodeExpiresAt(t, mk, 30*sec+1*msec)

	mk = func() *Node {
		n := NewNode(NodeConfig{Name: "redis-1", Monotonic: true})
		n.SetClockRate(0, 1.1)
		nodeLockAt(t, n, 0, 11*sec)
		n.JumpClock(1*sec, 60*sec)
		return n
	}
	nodeExpiresAt(t, mk, 10*sec)
}

func TestNodePersistence(t *testing.T) {
	cases := []struct {
		mode string
		want string
	}{
		{PersistNone, ""},
		{PersistEverysec, "a=1 b=2 c=3 long=y"},
		{PersistAlways, "a=changed c=3 d=4 long=y"},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			n := NewNode(NodeConfig{Name: "redis-1", Persistence: tc.mode})
			nodeDo(t, n, 1*sec, "SET", "a", "1")
			nodeDo(t, n, 1*sec, "SET", "long", "y", "PX", "60000") // absolute expiry 61s
			nodeDo(t, n, 2*sec, "SET", "b", "2")
			nodeDo(t, n, 2200*msec, "SET", "c", "3") // exactly crash-1s: kept by everysec
			nodeDo(t, n, 2200*msec+1, "SET", "d", "4")
			nodeDo(t, n, 3*sec, "SET", "a", "changed")
			nodeDo(t, n, 3*sec, "DEL", "b")
			nodeDo(t, n, 3*sec, "SET", "short", "x", "PX", "5000") // absolute expiry 8s
			n.Crash(3200 * msec)
			if n.Up() {
				t.Fatal("up after crash")
			}
			if _, err := n.Do(5*sec, "c", "PING"); err != ErrDown {
				t.Fatalf("down node: err = %v", err)
			}
			n.Restart(10 * sec)
			var got []string
			for _, k := range n.Keys(10 * sec) {
				got = append(got, k.Key+"="+k.Value)
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("after restart: %q, want %q", strings.Join(got, " "), tc.want)
			}
			if tc.mode != PersistNone {
				// Absolute expiry survives: 61s - 10s.
				if got := nodePTTL(t, n, 10*sec, "long"); got != 51000 {
					t.Errorf("PTTL long = %d, want 51000", got)
				}
			}
		})
	}
}

func TestNodeRestartLoadingAndNoScript(t *testing.T) {
	n := NewNode(NodeConfig{Name: "redis-1", RestartDelay: 5 * sec})
	sha := nodeDo(t, n, 0, "SCRIPT", "LOAD", "return 1").(string)
	n.Crash(1 * sec)
	n.Restart(10 * sec)
	if !n.Loading(14 * sec) {
		t.Error("not loading during restart_delay")
	}
	_, err := n.Do(15*sec-1, "c", "GET", "k")
	var re RedisError
	if !errors.As(err, &re) || !strings.HasPrefix(string(re), "LOADING ") {
		t.Fatalf("during restart_delay: err = %v, want LOADING", err)
	}
	if r := nodeDo(t, n, 15*sec, "SET", "k", "v"); r != server.Simple("OK") {
		t.Fatalf("after restart_delay: %v", r)
	}
	// The script cache does not survive a restart.
	if _, err := n.Do(15*sec, "c", "EVALSHA", sha, "0"); err == nil || !strings.HasPrefix(err.Error(), "NOSCRIPT") {
		t.Fatalf("EVALSHA after restart: %v, want NOSCRIPT", err)
	}
}

const nodeReleaseScript = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

func TestNodeEvalCompareAndDelete(t *testing.T) {
	n := NewNode(NodeConfig{Name: "redis-1"})
	nodeLockAt(t, n, 0, 30*sec)
	n.TakeEffects()
	if r := nodeDo(t, n, 1*sec, "EVAL", nodeReleaseScript, "1", "lock:x", "B"); r != 0 {
		t.Fatalf("release by non-owner = %#v, want 0", r)
	}
	if effs := n.TakeEffects(); len(effs) != 0 {
		t.Fatalf("failed release produced effects %v", effs)
	}
	if r := nodeDo(t, n, 1*sec, "EVAL", nodeReleaseScript, "1", "lock:x", "A"); r != 1 {
		t.Fatalf("release by owner = %#v, want 1", r)
	}
	effs := n.TakeEffects()
	if len(effs) != 1 || effs[0].String() != "lock:x deleted" {
		t.Fatalf("effects = %v", effs)
	}
	if nodePresent(t, n, 1*sec, "lock:x") {
		t.Fatal("lock still there")
	}
}

func TestNodeFailedSetNXHasNoEffect(t *testing.T) {
	n := NewNode(NodeConfig{Name: "redis-1"})
	nodeLockAt(t, n, 1*msec, 30*sec)
	effs := n.TakeEffects()
	if len(effs) != 1 || effs[0].String() != `lock:x = "A" expires@30.001s` {
		t.Fatalf("effects = %v", effs)
	}
	if r, _ := n.Do(2*sec, "b", "SET", "lock:x", "B", "NX", "PX", "30000"); r != nil {
		t.Fatalf("SET NX on a held lock = %#v", r)
	}
	if effs := n.TakeEffects(); len(effs) != 0 {
		t.Fatalf("failed SET NX produced %v", effs)
	}
}

func TestNodeReplicaReadOnly(t *testing.T) {
	n := NewNode(NodeConfig{Name: "redis-1-r1"})
	nodeDo(t, n, 0, "SET", "k", "v")
	n.SetReplica(true)
	if !n.IsReplica() {
		t.Fatal("IsReplica false")
	}
	_, err := n.Do(1*sec, "c", "SET", "k", "w")
	if err == nil || err.Error() != "READONLY You can't write against a read only replica." {
		t.Fatalf("SET on replica: %v", err)
	}
	if got := nodeDo(t, n, 1*sec, "GET", "k"); got != "v" {
		t.Fatalf("GET on replica = %#v", got)
	}
	// A script may run on a replica, but not write.
	if r := nodeDo(t, n, 1*sec, "EVAL", `return redis.call("get", KEYS[1])`, "1", "k"); r != "v" {
		t.Fatalf("read-only script = %#v", r)
	}
	if _, err := n.Do(1*sec, "c", "EVAL", nodeReleaseScript, "1", "k", "v"); err == nil || !strings.Contains(err.Error(), "READONLY") {
		t.Fatalf("writing script on replica: %v", err)
	}
	if got := nodeDo(t, n, 1*sec, "GET", "k"); got != "v" {
		t.Fatalf("replica changed: %#v", got)
	}
	n.SetReplica(false)
	nodeDo(t, n, 2*sec, "SET", "k", "w")
}

func TestNodeReplicationAbsoluteExpiry(t *testing.T) {
	master := NewNode(NodeConfig{Name: "redis-1"})
	replica := NewNode(NodeConfig{Name: "redis-1-r1"})
	replica.SetReplica(true)
	replica.JumpClock(0, 5*sec) // the replica's wall clock is 5s ahead

	nodeLockAt(t, master, 1*sec, 30*sec) // absolute expiry 31s by the master's clock
	nodeDo(t, master, 1*sec, "HSET", "h", "b", "2", "a", "1")
	effs := master.TakeEffects()
	if len(effs) != 2 || !effs[0].Expires || effs[0].ExpireAt != 31*sec {
		t.Fatalf("effects = %v", effs)
	}
	replica.ApplyEffects(1*sec+10*msec, effs)
	// Same absolute instant on a clock 5s ahead: 31s - 6.01s.
	if got := nodePTTL(t, replica, 1*sec+10*msec, "lock:x"); got != 24990 {
		t.Errorf("replica PTTL = %d, want 24990", got)
	}
	want := []KeyInfo{
		{Key: "h", Type: "hash", Value: "a=1 b=2", TTL: -1},
		{Key: "lock:x", Type: "string", Value: "A", TTL: 24990 * msec},
	}
	if got := replica.Keys(1*sec + 10*msec); !reflect.DeepEqual(got, want) {
		t.Errorf("replica Keys = %v, want %v", got, want)
	}
	// The key is gone on the replica at 26s true (31s by its clock), while the
	// master keeps it until 31s.
	if nodePresent(t, replica, 26*sec+1, "lock:x") || !nodePresent(t, master, 26*sec+1, "lock:x") {
		t.Error("replica should expire the key by its own clock")
	}
	// A DEL propagates.
	nodeDo(t, master, 27*sec, "DEL", "h")
	replica.ApplyEffects(27*sec+10*msec, master.TakeEffects())
	if nodePresent(t, replica, 27*sec+10*msec, "h") {
		t.Error("DEL not applied")
	}
}

func TestNodeSnapshotLoad(t *testing.T) {
	newMaster := NewNode(NodeConfig{Name: "redis-1-r1"})
	old := NewNode(NodeConfig{Name: "redis-1", Persistence: PersistAlways})
	nodeLockAt(t, newMaster, 1*sec, 30*sec)
	nodeDo(t, newMaster, 1*sec, "RPUSH", "q", "x", "y")
	nodeLockAt(t, old, 2*sec, 10*sec) // never replicated
	nodeDo(t, old, 2*sec, "SET", "only-old", "1")

	snap := newMaster.Snapshot(5 * sec)
	if len(snap) != 2 || snap[0].Key != "lock:x" || snap[1].String() != `q = "x y" (list)` {
		t.Fatalf("snapshot = %v", snap)
	}
	old.LoadSnapshot(5*sec, snap)
	if got, want := old.Keys(5*sec), newMaster.Keys(5*sec); !reflect.DeepEqual(got, want) {
		t.Fatalf("after full resync: %v, want %v", got, want)
	}
	// The rewritten log is what survives a crash now.
	old.Crash(6 * sec)
	old.Restart(7 * sec)
	if got, want := old.Keys(7*sec), newMaster.Keys(7*sec); !reflect.DeepEqual(got, want) {
		t.Fatalf("after restart: %v, want %v", got, want)
	}
}

func TestNodeKeysIsPureAndSorted(t *testing.T) {
	n := NewNode(NodeConfig{Name: "redis-1"})
	nodeDo(t, n, 0, "SET", "z", "1", "PX", "1000")
	nodeDo(t, n, 0, "ZADD", "s", "2", "b", "1", "a")
	nodeDo(t, n, 0, "SADD", "set", "q", "p")
	got := n.Keys(2 * sec) // z expired by then, without advancing the node
	want := []KeyInfo{
		{Key: "s", Type: "zset", Value: "a=1 b=2", TTL: -1},
		{Key: "set", Type: "set", Value: "p q", TTL: -1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Keys = %v, want %v", got, want)
	}
	if effs := n.TakeEffects(); len(effs) != 3 {
		t.Fatalf("Keys changed the effects: %v", effs)
	}
}

func TestNodeMultiExecLogged(t *testing.T) {
	n := NewNode(NodeConfig{Name: "redis-1", Persistence: PersistAlways})
	nodeDo(t, n, 0, "MULTI")
	nodeDo(t, n, 0, "SET", "k", "v")
	nodeDo(t, n, 0, "PEXPIRE", "k", "5000")
	nodeDo(t, n, 0, "EXEC")
	effs := n.TakeEffects()
	if len(effs) != 1 || effs[0].String() != `k = "v" expires@5s` {
		t.Fatalf("effects = %v", effs)
	}
}

// TestNodeDeterminism runs the same operations on two nodes and compares
// everything observable.
func TestNodeDeterminism(t *testing.T) {
	run := func() string {
		n := NewNode(NodeConfig{Name: "redis-1", Persistence: PersistEverysec})
		var b strings.Builder
		for i := range 200 {
			now := time.Duration(i) * 137 * msec
			switch i % 7 {
			case 0:
				n.Do(now, "a", "SET", fmt.Sprint("lock:", i%5), "A", "NX", "PX", "900")
			case 1:
				n.Do(now, "b", "EVAL", nodeReleaseScript, "1", fmt.Sprint("lock:", i%5), "A")
			case 2:
				n.Do(now, "b", "HINCRBY", "h", fmt.Sprint("f", i%3), "1")
			case 3:
				n.Do(now, "b", "SADD", "s", fmt.Sprint(i))
			case 4:
				fmt.Fprint(&b, n.JumpClock(now, time.Duration(i%3-1)*300*msec))
			case 5:
				n.Do(now, "a", "SPOP", "s")
			case 6:
				if i%21 == 6 {
					n.Crash(now)
					n.Restart(now + 500*msec)
				}
			}
			fmt.Fprint(&b, n.TakeEffects(), n.Keys(now+500*msec))
		}
		return b.String()
	}
	a, b := run(), run()
	if a != b {
		t.Fatal("two identical runs differ")
	}
}

func BenchmarkNodeSET(b *testing.B) {
	n := NewNode(NodeConfig{Name: "redis-1"})
	args := []string{"SET", "lock:x", "A", "NX", "PX", "30000"}
	b.ReportAllocs()
	now := time.Duration(0)
	for b.Loop() {
		now += 7 * msec // time passes: the key is set, held, expires, set again
		if _, err := n.Do(now, "c", args...); err != nil {
			b.Fatal(err)
		}
		n.TakeEffects()
	}
}

// BenchmarkNodeBoot is a fresh node: a miniredis instance (which registers
// its ~200 commands in a map of its own), its connection and fast path.
// A five-node Redlock world pays it five times per run.
func BenchmarkNodeBoot(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		n := NewNode(NodeConfig{Name: "redis-1"})
		n.st.Close()
	}
}

func BenchmarkNodeEval(b *testing.B) {
	n := NewNode(NodeConfig{Name: "redis-1"})
	b.ReportAllocs()
	now := time.Duration(0)
	for b.Loop() {
		now += 7 * msec
		if _, err := n.Do(now, "c", "EVAL", nodeReleaseScript, "1", "lock:x", "A"); err != nil {
			b.Fatal(err)
		}
		n.TakeEffects()
	}
}

// The node keeps its DB 0 at hand (Node.db); SWAPDB, typed or queued in a
// transaction, replaces it, and the node's own reads must follow.
func TestNodeSwapDBFollowed(t *testing.T) {
	for _, multi := range []bool{false, true} {
		n := NewNode(NodeConfig{Name: "redis-1"})
		nodeDo(t, n, 0, "SET", "zero", "0")
		nodeDo(t, n, 0, "SELECT", "1")
		nodeDo(t, n, 0, "SET", "one", "1")
		if multi {
			nodeDo(t, n, 0, "MULTI")
			nodeDo(t, n, 0, "SWAPDB", "0", "1")
			nodeDo(t, n, 0, "EXEC")
		} else {
			nodeDo(t, n, 0, "SWAPDB", "0", "1")
		}
		var got []string
		for _, k := range n.Keys(msec) {
			got = append(got, k.Key)
		}
		if !reflect.DeepEqual(got, []string{"one"}) || !n.Exists(msec, "one") || n.Exists(msec, "zero") {
			t.Fatalf("multi=%v: DB 0 after SWAPDB holds %v", multi, got)
		}
	}
}

// BenchmarkNodeHoldCycle is the lock node's side of one hold of the
// counter scenarios (counter-30x200-loopback: 6,000 grants, 6,000 Lua
// releases, 1,551 refused SET NX): a grant, a refused SET NX of another
// client, and the owner's release, each as the world runs it (the lock
// key tracked, its state after the command read, the effects taken).
func BenchmarkNodeHoldCycle(b *testing.B) {
	n := NewNode(NodeConfig{Name: "redis-1"})
	const key = "demo:lock"
	set := []string{"SET", key, "w01-1", "NX", "PX", "2000"}
	refused := []string{"SET", key, "w02-1", "NX", "PX", "2000"}
	release := []string{"EVAL", store.ScriptRelease, "1", key, "w01-1"}
	conns := []string{"w01", "w02", "w01"}
	b.ReportAllocs()
	now := time.Duration(0)
	for b.Loop() {
		for i, cmd := range [][]string{set, refused, release} {
			now += 50 * time.Microsecond
			if _, _, err := n.DoTracked(now, conns[i], key, cmd); err != nil {
				b.Fatal(err)
			}
			n.TrackedRef(key)
			if effs := n.TakeEffects(); len(effs) > 0 {
				n.outbox = effs[:0] // what Cluster.Ship does when no replica keeps them
			}
		}
	}
}
