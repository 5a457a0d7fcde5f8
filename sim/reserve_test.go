package sim

import (
	"strings"
	"testing"
	"time"
)

// An event queued late at a reserved place runs where it would have run
// had it been queued when the place was reserved: before the events at
// the same time that were scheduled after the reservation.
func TestReservedEventRunsInItsPlace(t *testing.T) {
	k := NewKernel(1)
	var got []string
	r := k.Reserve(time.Second)
	k.At(time.Second, func() { got = append(got, "b") }) // same time, scheduled after the reservation
	k.At(time.Second/2, func() {
		k.Queue(r, funcHandler(func() { got = append(got, "a") }))
	})
	for k.Step() {
	}
	if s := strings.Join(got, ""); s != "ab" {
		t.Fatalf("order %q, want ab", s)
	}
	if r.At() != time.Second {
		t.Fatalf("reserved at %v", r.At())
	}
	defer func() {
		if recover() == nil {
			t.Fatal("queueing at a place whose time has passed must panic")
		}
	}()
	k.Queue(Reservation{at: 0, seq: k.Reserve(0).seq}, funcHandler(func() {}))
}

// No message arrives later than MaxDelay after it was sent, whatever the
// jitter, slow faults and the link add.
func TestMaxDelayBoundsDelivery(t *testing.T) {
	k := NewKernel(3)
	n := k.NewNetwork(time.Millisecond, 500*time.Microsecond)
	n.SetLink(Link{From: "a", To: "b", Latency: 2 * time.Millisecond})
	n.AddSlow("b", 3*time.Millisecond, 0)
	worst := time.Duration(0)
	for i := range 1000 {
		k.At(time.Duration(i)*time.Microsecond, func() {
			sent, bound := k.Now(), n.MaxDelay("a", "b")
			n.Send("a", "b", func() { worst = max(worst, k.Now()-sent-bound) })
		})
	}
	for k.Step() {
	}
	if worst > 0 {
		t.Fatalf("a message arrived %v after its bound", worst)
	}
	if d := n.MaxDelay("b", "a"); d != 1500*time.Microsecond+3*time.Millisecond {
		t.Fatalf("MaxDelay(b, a) = %v, want base, jitter and the slow fault", d)
	}
	// A link that takes more off than the rest adds: delivered at once,
	// and the bound is 0, not below what the clock can reach.
	n.SetLink(Link{From: "c", To: "d", Latency: -time.Second})
	if d := n.MaxDelay("c", "d"); d != 0 {
		t.Fatalf("MaxDelay(c, d) = %v, want 0", d)
	}
}
