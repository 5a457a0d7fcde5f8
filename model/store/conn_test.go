package store

import (
	"fmt"
	"testing"

	"github.com/lockstep-sim/lockstep/sim"
)

// execOn runs args on the connection named name, numbered id (-1: by name
// only), and returns the reply as text.
func execOn(t *testing.T, s *Store, id int, name string, args ...string) string {
	t.Helper()
	s.Advance(0)
	r, _, err := s.ExecAs(0, id, name, "", args)
	s.TakeEffects()
	if err != nil {
		t.Fatalf("%s (%d) %v: %v", name, id, args, err)
	}
	return fmt.Sprint(r)
}

// TestNumberedConnIsNamedConn: a connection the caller numbers (ExecAs) is
// the one its name names, whichever way it is reached first: a MULTI begun
// by name queues the numbered connection's command, and the other way
// round.
func TestNumberedConnIsNamedConn(t *testing.T) {
	var clock sim.Clock
	s := newOn(bootInstance(), &clock, false, true, 0)
	defer s.Close()
	execOn(t, s, -1, "c1", "MULTI")
	if r := execOn(t, s, 5, "c1", "SET", "k", "v"); r != "QUEUED" {
		t.Fatalf("c1 numbered 5 after MULTI by name: SET got %v, want QUEUED", r)
	}
	execOn(t, s, 5, "c1", "EXEC")
	execOn(t, s, 2, "c2", "MULTI")
	if r := execOn(t, s, -1, "c2", "GET", "k"); r != "QUEUED" {
		t.Fatalf("c2 by name after MULTI as 2: GET got %v, want QUEUED", r)
	}
	if r := execOn(t, s, 5, "c1", "GET", "k"); r != "v" {
		t.Fatalf("c1 while c2 is in MULTI: GET got %v, want v", r)
	}
}

// TestConnNumbersEndWithTheStore: the numbers name connections for one
// store's life. A recycled instance's next store (the next world) may
// number other connections the same, and must find them by their names.
func TestConnNumbersEndWithTheStore(t *testing.T) {
	var c1, c2 sim.Clock
	old := newOn(bootInstance(), &c1, false, true, 0)
	execOn(t, old, 0, "a", "SET", "k", "v")
	in := old.recycle()
	if in == nil {
		t.Fatal("not recycled")
	}
	s := newOn(in, &c2, false, true, 0)
	defer s.Close()
	execOn(t, s, -1, "b", "MULTI")
	if r := execOn(t, s, 0, "b", "GET", "k"); r != "QUEUED" {
		t.Fatalf("b numbered 0 in the next store: GET got %v, want QUEUED (the last store's 0 was a)", r)
	}
}
