package store

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

const (
	msec = time.Millisecond
	sec  = time.Second
)

// testStore is a store on its own clock, driven as a node drives it: each
// call advances it to now first.
type testStore struct {
	t     testing.TB
	clock sim.Clock
	s     *Store
}

func newTestStore(t testing.TB) *testStore {
	ts := &testStore{t: t}
	ts.s = New(&ts.clock, false, true, 0)
	return ts
}

func (ts *testStore) do(now time.Duration, args ...string) any {
	ts.t.Helper()
	ts.s.Advance(now)
	ts.s.verifyKnownString()
	r, _, err := ts.s.Exec(now, "c", "", args)
	ts.s.TakeEffects()
	ts.s.verifyKnownString()
	if err != nil {
		ts.t.Fatalf("%v: %v", args, err)
	}
	return r
}

func (ts *testStore) exists(now time.Duration, key string) bool {
	ts.s.Advance(now)
	ts.s.TakeEffects()
	return ts.s.Exists(key)
}

// TestLagAndFieldTTLs: while no key can expire, a store tells miniredis
// the time lazily (Store.lag); what it reports must not change, and a hash
// field's own TTL (which the expiry bound does not cover) must still expire
// on time.
func TestLagAndFieldTTLs(t *testing.T) {
	ts := newTestStore(t)
	s := ts.s
	ts.do(0, "SET", "lock:x", "A", "NX", "PX", "10000")
	for now := 100 * msec; now < 1*sec; now += 100 * msec {
		if !ts.exists(now, "lock:x") || s.lag == 0 {
			t.Fatalf("at %v: lock:x gone, or no lag (%v)", now, s.lag)
		}
		if got, ok := s.TTL("lock:x"); !ok || got != 10*sec-now {
			t.Fatalf("TTL at %v = %v (lag %v)", now, got, s.lag)
		}
		if ks := s.Keys(now); len(ks) != 1 || ks[0].TTL != 10*sec-now {
			t.Fatalf("Keys at %v = %v", now, ks)
		}
		if got, want := ts.do(now, "PTTL", "lock:x"), int((10*sec-now)/msec); got != want {
			t.Fatalf("PTTL at %v = %v, want %d", now, got, want)
		}
	}
	if s.fieldTTLs {
		t.Fatal("fieldTTLs set by plain lock commands")
	}
	ts.do(1*sec, "HSET", "h", "f", "v", "g", "w")
	ts.do(1*sec, "HEXPIRE", "h", "2", "FIELDS", "1", "f")
	if !s.fieldTTLs {
		t.Fatal("HEXPIRE did not set fieldTTLs")
	}
	// Only the lock key has a TTL: advancing takes the no-scan branch.
	if got := fmt.Sprint(ts.do(2900*msec, "HKEYS", "h")); got != "[f g]" {
		t.Errorf("HKEYS before the field's expiry = %s", got)
	}
	if !ts.exists(3*sec, "h") || s.lag != 0 {
		t.Fatalf("h gone or lag %v", s.lag)
	}
	if got := fmt.Sprint(s.Keys(3 * sec)); !strings.Contains(got, "g=w") || strings.Contains(got, "f=v") {
		t.Errorf("Keys after the field's expiry = %s", got)
	}
}

// miniredis's RNG is seeded before the first command it runs, even when
// that command is a script whose own redis.call draws from it (the seeding
// must not wait for miniredis's lock, which the script holds): two fresh
// stores pop the same members. The global RNG would not.
func TestRandomCommandsSeeded(t *testing.T) {
	run := func() string {
		ts := newTestStore(t)
		members := make([]string, 50)
		for i := range members {
			members[i] = fmt.Sprint("m", i)
		}
		if _, err := ts.s.db().SetAdd("s", members...); err != nil {
			t.Fatal(err)
		}
		r := ts.do(time.Second, "EVAL", "return redis.call('SPOP', KEYS[1], 5)", "1", "s")
		r2 := ts.do(time.Second, "SRANDMEMBER", "s", "5")
		return fmt.Sprint(r, r2)
	}
	if a, b := run(), run(); a != b {
		t.Fatalf("two fresh stores drew differently: %s vs %s", a, b)
	}
}

// BenchmarkRawDispatch is SET NX PX through miniredis's dispatcher alone,
// what the plain fast path saves.
func BenchmarkRawDispatch(b *testing.B) {
	ts := newTestStore(b)
	c := ts.s.conn("c")
	args := []string{"SET", "lock:x", "A", "NX", "PX", "30000"}
	b.ReportAllocs()
	for b.Loop() {
		c.buf.Reset()
		ts.s.srv.Dispatch(c.peer, args)
		c.peer.Flush()
		if _, err := c.parse(); err != nil {
			b.Fatal(err)
		}
	}
}

// An owner's release leaves miniredis's time untold (Store.timeOwed), and
// every later call into miniredis tells it first: the LRU clock that the
// next fast SET NX, a refused SET NX and a GET stamp is their own instant
// (OBJECT IDLETIME reads it against the time of the command asking). Not
// through testStore.do nor with verifyKnownPost, whose checks read the key
// (and stamp it).
func TestTimeToldBeforeStamps(t *testing.T) {
	verifyKnownPost = false
	defer func() { verifyKnownPost = true }()
	ts := newTestStore(t)
	do := func(now time.Duration, args ...string) any {
		t.Helper()
		ts.s.Advance(now)
		r, _, err := ts.s.Exec(now, "c", "", args)
		ts.s.TakeEffects()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return r
	}
	idle := func(now time.Duration, want int) {
		t.Helper()
		if got := do(now, "OBJECT", "IDLETIME", "k"); got != want {
			t.Fatalf("OBJECT IDLETIME at %v = %v, want %v", now, got, want)
		}
	}
	do(sec, "SET", "k", "A-1", "NX", "PX", "30000")
	do(2*sec, "EVAL", ScriptRelease, "1", "k", "A-1")
	if !ts.s.timeOwed {
		t.Fatal("the owner's release told miniredis the time")
	}
	do(3*sec, "SET", "k", "B-1", "NX", "PX", "30000")
	idle(5*sec, 2)
	do(6*sec, "SET", "k", "C-1", "NX", "PX", "30000") // refused: EXISTS stamps
	idle(9*sec, 3)
	do(10*sec, "GET", "k")
	idle(14*sec, 4)
}
