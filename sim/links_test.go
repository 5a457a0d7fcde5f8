package sim

import (
	"testing"
	"time"
)

// A link's latency and loss apply to its direction only, on top of the
// base latency; the reverse direction and other links are untouched.
func TestLinkIsDirected(t *testing.T) {
	k := NewKernel(1)
	n := k.NewNetwork(time.Millisecond, 0)
	n.SetLink(Link{From: "A", To: "redis-3", Latency: 80 * time.Millisecond})
	var at = map[string]time.Duration{}
	send := func(from, to string) {
		n.Send(from, to, func() { at[from+">"+to] = k.Now() })
	}
	send("A", "redis-3")
	send("redis-3", "A")
	send("A", "redis-1")
	k.RunUntil(time.Second)
	want := map[string]time.Duration{"A>redis-3": 81 * time.Millisecond, "redis-3>A": time.Millisecond, "A>redis-1": time.Millisecond}
	for k, d := range want {
		if at[k] != d {
			t.Errorf("%s delivered at %v, want %v", k, at[k], d)
		}
	}
	if got := n.ExtraLatency("A", "redis-3"); got != 80*time.Millisecond {
		t.Errorf("ExtraLatency(A, redis-3) = %v, want 80ms", got)
	}
	if got := n.ExtraLatency("redis-3", "A"); got != 0 {
		t.Errorf("ExtraLatency(redis-3, A) = %v, want 0", got)
	}
}

// A lossy link loses about its rate of messages, and only on that link.
func TestLinkLoss(t *testing.T) {
	k := NewKernel(7)
	n := k.NewNetwork(time.Millisecond, 0)
	n.SetLink(Link{From: "A", To: "B", Loss: 0.5})
	n.SetLink(Link{From: "A", To: "C", Loss: 1})
	var lostB, lostC, lostD int
	for i := 0; i < 1000; i++ {
		if !n.Send("A", "B", func() {}) {
			lostB++
		}
		if !n.Send("A", "C", func() {}) {
			lostC++
		}
		if !n.Send("A", "D", func() {}) {
			lostD++
		}
	}
	if lostB < 400 || lostB > 600 {
		t.Errorf("A->B lost %d of 1000 at loss 0.5", lostB)
	}
	if lostC != 1000 || lostD != 0 {
		t.Errorf("A->C lost %d (want 1000), A->D lost %d (want 0)", lostC, lostD)
	}
}

// BenchmarkNetworkSend is one message sent and delivered, with no per-link
// settings (every bundled scenario before network.links) and with a
// network holding links (none on the measured pair, so only the lookup
// is paid).
func BenchmarkNetworkSend(b *testing.B) {
	for _, links := range []bool{false, true} {
		name := "no-links"
		if links {
			name = "links"
		}
		b.Run(name, func(b *testing.B) {
			k := NewKernel(1)
			n := k.NewNetwork(time.Millisecond, 0)
			if links {
				n.SetLink(Link{From: "A", To: "redis-3", Latency: 80 * time.Millisecond})
				n.SetLink(Link{From: "redis-3", To: "A", Latency: 80 * time.Millisecond})
			}
			deliver := func() {}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				n.Send("A", "redis-1", deliver)
				k.Step()
			}
		})
	}
}
