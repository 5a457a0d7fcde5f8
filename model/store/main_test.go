package store

import (
	"os"
	"testing"
	"time"
)

// Every test of the package checks each state the fast path claims to know
// against miniredis (known.go).
func TestMain(m *testing.M) {
	verifyKnownPost = true
	os.Exit(m.Run())
}

// The known state of a fast SET NX PX and DEL is what miniredis reads back
// (postState panics otherwise), and it is used: diff reads nothing back.
func TestKnownPostState(t *testing.T) {
	ts := newTestStore(t)
	ts.do(sec, "SET", "k", "A-1", "NX", "PX", "30000")
	if !ts.s.cmd.knownOK || ts.s.cmd.known.Value != "A-1" || ts.s.cmd.known.ExpireAt != 31*sec {
		t.Fatalf("SET NX PX: known %+v %v", ts.s.cmd.known, ts.s.cmd.knownOK)
	}
	ts.do(2*sec, "SET", "k", "B-1", "NX", "PX", "30000") // refused: no write, nothing known
	if ts.s.cmd.knownOK {
		t.Fatal("a refused SET NX left a known state")
	}
	ts.do(3*sec, "EVAL", ScriptRelease, "1", "k", "A-1")
	if !ts.s.cmd.knownOK || !ts.s.cmd.known.Deleted {
		t.Fatalf("release: known %+v %v", ts.s.cmd.known, ts.s.cmd.knownOK)
	}
	ts.do(4*sec, "SET", "k", "A-2", "NX", "PX", "100")
	ts.do(5*sec, "SET", "k", "A-2", "PX", "100") // not NX: read back
	if ts.s.cmd.knownOK {
		t.Fatal("a plain SET left a known state")
	}
}

// The string a fast SET NX PX wrote is known until anything may change the
// data (testStore.do checks it against miniredis around every command):
// the owner's release then skips its GET, and every other way the key can
// change forgets it, so a release of a key that was overwritten,
// dispatched over, expired or replaced answers as Lua does.
func TestKnownStringForgotten(t *testing.T) {
	ts := newTestStore(t)
	known := func(step string, want bool) {
		t.Helper()
		if key, _, ok := ts.s.fast.KnownString(); (ok && key == "k") != want {
			t.Fatalf("%s: known string %v, want %v", step, ok, want)
		}
	}
	release := func(now time.Duration, token string, want int) {
		t.Helper()
		if got := ts.do(now, "EVAL", ScriptRelease, "1", "k", token); got != want {
			t.Fatalf("release by %s at %v = %v, want %v", token, now, got, want)
		}
	}
	ts.do(sec, "SET", "k", "A-1", "NX", "PX", "30000")
	known("after SET NX PX", true)
	ts.do(2*sec, "SET", "k", "B-1", "NX", "PX", "30000") // refused: reads only
	known("after a refused SET NX", true)
	release(3*sec, "B-1", 0)
	known("after another owner's release", true)
	release(3*sec, "A-1", 1) // the owner's: no GET
	known("after the release", false)

	ts.do(4*sec, "SET", "k", "A-2", "NX", "PX", "30000")
	ts.do(4*sec, "SET", "k", "B-2") // a plain SET overwrites it
	known("after a plain SET", false)
	release(5*sec, "A-2", 0)
	release(5*sec, "B-2", 1)

	ts.do(6*sec, "SET", "k", "A-3", "NX", "PX", "30000")
	ts.do(6*sec, "APPEND", "k", "x") // dispatched to miniredis
	known("after a dispatch", false)
	release(7*sec, "A-3", 0)
	release(7*sec, "A-3x", 1)

	ts.do(8*sec, "SET", "k", "A-4", "NX", "PX", "100")
	if ts.exists(9*sec, "k") {
		t.Fatal("k did not expire")
	}
	known("after the key expired", false)
	release(9*sec, "A-4", 0)

	ts.do(10*sec, "SET", "k", "A-5", "NX", "PX", "30000")
	ts.s.WriteState(Effect{Key: "k", Type: "string", Value: "C-1"}) // a resync's write
	known("after WriteState", false)
	release(11*sec, "A-5", 0)
	release(11*sec, "C-1", 1)
}
