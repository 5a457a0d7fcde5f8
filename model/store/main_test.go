package store

import (
	"os"
	"testing"
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
