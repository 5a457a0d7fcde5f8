package store

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// play runs cmds on s (one per second of true time, on connection "c")
// and returns every reply, error and the keys left, as text.
func play(s *Store, start time.Duration, cmds [][]string) string {
	var b strings.Builder
	now := start
	for _, args := range cmds {
		now += sec
		s.Advance(now)
		r, p, err := s.Exec(now, "c", "k", args)
		fmt.Fprintf(&b, "%v -> %v %v %v effects=%v\n", args, r, p, err, s.Effects())
		s.TakeEffects()
	}
	fmt.Fprintf(&b, "keys: %v\n", s.Keys(now))
	return b.String()
}

// split turns "SET k v|GET k" into commands.
func split(script string) [][]string {
	var out [][]string
	for _, c := range strings.Split(script, "|") {
		out = append(out, strings.Fields(c))
	}
	return out
}

// A recycled miniredis answers exactly as a freshly booted one: no keys,
// no cached scripts, the RNG from its seed, TTLs on the new clock. This is
// what lets a world reuse a finished world's stores without the trace of
// a run depending on the runs before it.
func TestRecycledStoreIsFresh(t *testing.T) {
	used := split(`SET k A PX 30000|SET x 1|SCRIPT LOAD return(1)|SADD s a b c d e f|SPOP s|` +
		`HSET h f v|HPEXPIRE h 5000 FIELDS 1 f|RPUSH l 1 2|INCR n|SWAPDB 0 1|SET y 2 EX 100|` +
		`WATCH k|MULTI|INCR n`) // the connection is left inside MULTI
	after := split(`EVALSHA 930269f31393d0be681588b6ab08dccee7d6bb67 0|SCRIPT EXISTS 930269f31393d0be681588b6ab08dccee7d6bb67|` +
		`KEYS *|DBSIZE|SADD s a b c d e f g h|SPOP s 3|SRANDMEMBER s 2|PTTL k|SET k B NX PX 1000|` +
		`EXISTS x y h l n|SELECT 1|DBSIZE|SELECT 0|GET k`)
	var c0, c1, c2 sim.Clock
	fresh := newOn(bootInstance(), &c0, false, true, 0)
	want := play(fresh, 0, after)

	old := newOn(bootInstance(), &c1, false, true, 0)
	play(old, 0, used)
	in := old.recycle()
	if in == nil {
		t.Fatal("a store that ran only key and script commands was not recycled")
	}
	if old.m != nil || old.conns != nil {
		t.Fatal("the released store is still usable")
	}
	c2.SetRate(0, 1)
	reused := newOn(in, &c2, false, true, 0)
	if got := play(reused, 0, after); got != want {
		t.Fatalf("recycled store differs from a fresh one:\n--- fresh\n%s--- recycled\n%s", want, got)
	}
}

// A store whose commands the fast path answered alone (miniredis dispatched
// none: a lock's SET NX PX, its release and renewal) is emptied by deleting
// its keys instead of FLUSHALL; it too answers as a fresh one.
func TestRecycledFastOnlyStoreIsFresh(t *testing.T) {
	used := split(`SET k A NX PX 30000|SET x 1 NX PX 5000|SET k B NX PX 30000|DEL x|SET y 2 NX PX 100000`)
	after := split(`KEYS *|DBSIZE|PTTL k|PTTL y|EXISTS k x y|SET k B NX PX 1000|GET k`)
	var c0, c1, c2 sim.Clock
	want := play(newOn(bootInstance(), &c0, false, true, 0), 0, after)
	old := newOn(bootInstance(), &c1, false, true, 0)
	play(old, 0, used)
	if old.seeded || len(old.m.Keys()) == 0 {
		t.Fatalf("the commands were not the fast path's alone (dispatched %t) or left no keys", old.seeded)
	}
	in := old.recycle()
	if in == nil {
		t.Fatal("not recycled")
	}
	if got := play(newOn(in, &c2, false, true, 0), 0, after); got != want {
		t.Fatalf("recycled store differs from a fresh one:\n--- fresh\n%s--- recycled\n%s", want, got)
	}
}

// A store that changed connection or server state FLUSHALL does not clear
// (pub/sub, the counters INFO shows, the selected DB) is not reused.
func TestDirtyStoreIsNotRecycled(t *testing.T) {
	for _, cmd := range []string{"INFO", "SELECT 1", "SUBSCRIBE ch", "CLIENT SETNAME x", "PUBLISH ch m"} {
		var c sim.Clock
		s := newOn(bootInstance(), &c, false, true, 0)
		play(s, 0, split("SET a 1|"+cmd))
		if in := s.recycle(); in != nil {
			t.Errorf("%s: the store was recycled", cmd)
		}
		if s.m != nil {
			t.Errorf("%s: the store was not closed", cmd)
		}
	}
	var c sim.Clock
	s := newOn(bootInstance(), &c, false, true, 0)
	play(s, 0, split("SET a 1 PX 100|EVAL return(2) 0|GET a|MULTI|INCR n|EXEC"))
	if s.recycle() == nil {
		t.Error("a store that ran only data commands was not recycled")
	}
}
