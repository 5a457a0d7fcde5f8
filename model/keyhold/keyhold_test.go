package keyhold

import (
	"strings"
	"testing"
	"time"
)

// Two clients in opposite orders close a circle once; a third that waits
// on one of them is not part of it; the sorted order never closes one.
func TestWaitFindsCircles(t *testing.T) {
	b := New(10 * time.Second)
	a := b.Of("A", []string{"k1", "k2"}, false)
	c := b.Of("B", []string{"k2", "k1"}, false)
	b.Took(a, "k1")
	b.Took(c, "k2")
	if _, ok := b.Wait(a, "k2"); ok {
		t.Fatal("a deadlock before B waits")
	}
	circle, ok := b.Wait(c, "k1")
	msg := circle.String()
	if !ok || !strings.HasPrefix(msg, "B and A are waiting for each other: B holds k2 and waits for k1; A holds k1 and waits for k2.") {
		t.Fatalf("Wait = %q, %v", msg, ok)
	}
	if _, again := b.Wait(a, "k2"); again {
		t.Error("the same circle reported twice")
	}
	x := b.Of("C", []string{"k3", "k1"}, false)
	b.Took(x, "k3")
	if _, ok := b.Wait(x, "k1"); ok {
		t.Error("C waits on the circle but is not in it")
	}
	b.GaveBack(c)
	b.GaveBack(a)
	b.Took(a, "k1")
	b.Took(c, "k2")
	if _, ok := b.Wait(c, "k1"); ok {
		t.Error("A is not waiting any more")
	}

	s := New(time.Second)
	p := s.Of("A", []string{"k2", "k1"}, true)
	q := s.Of("B", []string{"k1", "k2"}, true)
	if p.Keys[0] != "k1" || q.Keys[0] != "k1" {
		t.Fatalf("sorted keys %v %v", p.Keys, q.Keys)
	}
	s.Took(p, "k1")
	if _, ok := s.Wait(q, "k1"); ok {
		t.Error("B holds nothing, yet a deadlock")
	}
}
