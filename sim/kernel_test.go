package sim

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

func TestEventsRunInTimeThenSequenceOrder(t *testing.T) {
	k := NewKernel(1)
	var got []string
	add := func(at time.Duration, name string) { k.At(at, func() { got = append(got, name) }) }
	add(2*time.Second, "c")
	add(time.Second, "a")
	add(time.Second, "b") // same time as a: scheduled later, runs later
	add(0, "z")
	for k.Step() {
	}
	if s := strings.Join(got, ""); s != "zabc" {
		t.Fatalf("order %q, want zabc", s)
	}
	if k.Now() != 2*time.Second {
		t.Fatalf("now = %v", k.Now())
	}
}

func TestTimerStop(t *testing.T) {
	k := NewKernel(1)
	ran := false
	tm := k.After(time.Second, func() { ran = true })
	if !tm.Stop() || tm.Stop() {
		t.Fatal("Stop should report true once")
	}
	for k.Step() {
	}
	if ran {
		t.Fatal("stopped timer ran")
	}
}

// TestStopWhileRunning: a timer stopped from inside its own event reports
// false and stops nothing else; the kernel marks an event gone as it takes
// it out of the queue (the queue's pop leaves that to the kernel's loop).
func TestStopWhileRunning(t *testing.T) {
	k := NewKernel(1)
	var order []string
	var a Timer
	for i, d := range []time.Duration{time.Second, 2 * time.Second} {
		if i == 1 { // an earlier event first: a runs from the heap, not from next
			k.At(d-time.Second/4, func() { order = append(order, "z") })
		}
		a = k.At(d, func() {
			order = append(order, "a")
			if a.Stop() {
				t.Error("a running event was stopped")
			}
			k.After(0, func() { order = append(order, "b") })
		})
		k.At(d+time.Second/2, func() { order = append(order, "c") })
		k.RunUntil(d + time.Second)
	}
	if got := strings.Join(order, ""); got != "abczabc" {
		t.Fatalf("order %q, want abczabc", got)
	}
}

// A process reads as straight-line code and only runs when the kernel lets it.
func TestProcessesInterleaveDeterministically(t *testing.T) {
	k := NewKernel(1)
	var log []string
	for _, name := range []string{"A", "B"} {
		g := k.NewGroup(name)
		g.Spawn(name, 0, func(p *Proc) {
			for i := 0; i < 3; i++ {
				log = append(log, fmt.Sprintf("%s%d@%v", name, i, p.Now()))
				p.Sleep(time.Second)
			}
		})
	}
	for k.Step() {
	}
	want := "A0@0s B0@0s A1@1s B1@1s A2@2s B2@2s"
	if got := strings.Join(log, " "); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	k.Close()
}

// A paused group's wakes are held and delivered, in order, on resume; a
// frozen thread does not stop its sibling.
func TestPauseHoldsWakesAndFreezeIsPerThread(t *testing.T) {
	k := NewKernel(1)
	g := k.NewGroup("A")
	var log []string
	main := g.Spawn("A", 0, func(p *Proc) {
		p.Sleep(time.Second)
		log = append(log, fmt.Sprintf("main woke @%v", p.Now()))
	})
	g.Spawn("A/wd", 0, func(p *Proc) {
		for i := 0; i < 3; i++ {
			p.Sleep(400 * time.Millisecond)
			log = append(log, fmt.Sprintf("wd @%v", p.Now()))
		}
	})
	k.At(500*time.Millisecond, func() { main.Freeze() })
	k.At(1500*time.Millisecond, func() { main.Thaw() })
	for k.Step() {
	}
	want := "wd @400ms, wd @800ms, wd @1.2s, main woke @1.5s"
	if got := strings.Join(log, ", "); got != want {
		t.Fatalf("got %s", got)
	}

	k2 := NewKernel(1)
	g2 := k2.NewGroup("B")
	var woke time.Duration
	g2.Spawn("B", 0, func(p *Proc) { p.Sleep(time.Second); woke = p.Now() })
	k2.At(100*time.Millisecond, g2.Pause)
	k2.At(5*time.Second, g2.Resume)
	for k2.Step() {
	}
	if woke != 5*time.Second {
		t.Fatalf("paused process woke at %v, want 5s (when the pause ended)", woke)
	}
}

// Killing a group unwinds its threads without running the rest of them, and
// Close ends every thread so nothing outlives the kernel.
func TestKillAndClose(t *testing.T) {
	k := NewKernel(1)
	g := k.NewGroup("A")
	after := false
	p := g.Spawn("A", 0, func(p *Proc) { p.Sleep(time.Hour); after = true })
	k.Step()
	k.At(time.Second, g.Kill)
	for k.Step() {
	}
	if after || p.Alive() || !g.Dead() {
		t.Fatalf("killed process ran on (after=%v alive=%v)", after, p.Alive())
	}
	k2 := NewKernel(1)
	q := k2.NewGroup("B").Spawn("B", 0, func(p *Proc) { p.Sleep(time.Hour) })
	k2.Step()
	k2.Close()
	if q.Alive() {
		t.Fatal("Close left a process alive")
	}
}

// Only the first wake of a ticket counts: a reply and a timeout may race.
func TestTicketFirstWakeWins(t *testing.T) {
	k := NewKernel(1)
	var got any
	k.NewGroup("A").Spawn("A", 0, func(p *Proc) {
		tk := p.Arm()
		k.After(time.Second, func() { tk.Wake("reply") })
		k.After(2*time.Second, func() { tk.Wake("timeout") })
		got = p.Park()
		p.Sleep(5 * time.Second)
	})
	for k.Step() {
	}
	if got != "reply" {
		t.Fatalf("got %v", got)
	}
}

func TestRandStreamsAreIndependentAndSeeded(t *testing.T) {
	a1 := NewRand(7, "net").Uint64()
	a2 := NewRand(7, "net").Uint64()
	b := NewRand(7, "retry/A").Uint64()
	c := NewRand(8, "net").Uint64()
	if a1 != a2 || a1 == b || a1 == c {
		t.Fatalf("streams: %x %x %x %x", a1, a2, b, c)
	}
}

func TestNetworkPartitionAndIsolate(t *testing.T) {
	k := NewKernel(1)
	n := k.NewNetwork(time.Millisecond, 0)
	id := n.Partition([][]string{{"A", "r1"}, {"B", "r2"}})
	if n.Connected("A", "r2") || !n.Connected("A", "r1") || !n.Connected("A", "C") {
		t.Fatal("partition: wrong links")
	}
	n.Heal(id)
	iso := n.Isolate("r1")
	if n.Connected("A", "r1") || !n.Connected("A", "B") {
		t.Fatal("isolate: wrong links")
	}
	// A message in flight when the link is cut is lost.
	n.Heal(iso)
	delivered := false
	n.Send("A", "r1", func() { delivered = true })
	n.Isolate("r1")
	for k.Step() {
	}
	if delivered {
		t.Fatal("in-flight message crossed a partition")
	}
}

// TestBudgetBoundsEveryLoop: an event that reschedules itself at the same
// instant never lets virtual time advance, so only the budget ends RunUntil
// and Step; both stop after exactly the budget, and a kernel without one
// set keeps running.
func TestBudgetBoundsEveryLoop(t *testing.T) {
	const budget = 10_000
	k := NewKernel(1)
	k.SetBudget(budget)
	var spin func()
	spin = func() { k.After(0, spin) }
	k.After(0, spin)
	k.RunUntil(time.Hour)
	if !k.Exhausted() || k.Steps() != budget {
		t.Fatalf("RunUntil: exhausted %t after %d events, want exactly %d", k.Exhausted(), k.Steps(), budget)
	}
	if k.Now() != 0 {
		t.Errorf("an exhausted RunUntil moved the clock to %s; it stays where the last event left it", k.Now())
	}
	if k.Step() || k.Steps() != budget {
		t.Errorf("Step ran an event past the budget (%d events)", k.Steps())
	}
	free := NewKernel(1)
	free.SetBudget(0)
	spin2 := func() {}
	for range budget + 1 {
		free.After(0, spin2)
	}
	free.RunUntil(0)
	if free.Exhausted() || free.Steps() != budget+1 {
		t.Errorf("SetBudget(0): exhausted %t after %d events, want no bound", free.Exhausted(), free.Steps())
	}
}

// TestSlowFaultsCompose: slow faults on one process add their latencies and
// combine their losses as independent draws; one fault alone is taken
// exactly as given (0.1 stays 0.1, not 1-(1-0.1)), and ending one leaves the
// others.
func TestSlowFaultsCompose(t *testing.T) {
	a1, a2 := 0.1, 0.5
	both := a1 + a2 - float64(a1*a2)
	n := NewKernel(1).NewNetwork(time.Millisecond, 0)
	a := n.AddSlow("x", 10*time.Millisecond, 0.1)
	if lat, loss := n.Slow("x"); lat != 10*time.Millisecond || loss != 0.1 {
		t.Fatalf("one slow: +%s loss %v", lat, loss)
	}
	b := n.AddSlow("x", 5*time.Millisecond, 0.5)
	if lat, loss := n.Slow("x"); lat != 15*time.Millisecond || loss != both {
		t.Errorf("two slows: +%s loss %v, want +15ms loss 1-(1-0.1)(1-0.5)", lat, loss)
	}
	c := n.AddSlow("x", 0, 0)
	if _, loss := n.Slow("x"); loss != both {
		t.Errorf("a lossless third slow changed the loss to %v", loss)
	}
	n.EndSlow(c)
	n.EndSlow(a)
	if lat, loss := n.Slow("x"); lat != 5*time.Millisecond || loss != 0.5 {
		t.Errorf("after the first ends: +%s loss %v, want the second's +5ms loss 0.5", lat, loss)
	}
	n.EndSlow(b)
	n.EndSlow(b)
	if lat, loss := n.Slow("x"); lat != 0 || loss != 0 || len(n.slow) != 0 {
		t.Errorf("after both end: +%s loss %v (%d entries)", lat, loss, len(n.slow))
	}
}

// TestAfterSaturates: a delay past Never is scheduled at Never, not wrapped
// around into the past (where it would run at once).
func TestAfterSaturates(t *testing.T) {
	k := NewKernel(1)
	k.After(time.Second, func() {})
	k.Step()
	ran := false
	k.After(math.MaxInt64, func() { ran = true })
	k.AfterHandler(math.MaxInt64-1, (*procSleep)(nil)) // never fires before Never: nil would panic
	k.RunUntil(Never - 1)
	if ran {
		t.Fatal("an event scheduled math.MaxInt64 ahead ran before Never")
	}
	if at, ok := k.Next(); !ok || at != Never {
		t.Errorf("next event at %d, want Never", at)
	}
}

// A panic in a process surfaces on the kernel's goroutine, from the Step
// that woke it, named after the process; the process is then dead and the
// kernel still closes.
func TestProcPanicReachesTheKernel(t *testing.T) {
	k := NewKernel(1)
	g := k.NewGroup("A")
	p := g.Spawn("A/worker", 0, func(p *Proc) {
		p.Sleep(time.Second)
		panic("boom")
	})
	k.Step() // the start: the process runs until its Sleep
	got := func() (r any) {
		defer func() { r = recover() }()
		k.Step()
		return nil
	}()
	if want := "sim: process A/worker panicked: boom"; got != want {
		t.Fatalf("Step panicked with %#v, want %q", got, want)
	}
	if p.Alive() {
		t.Error("the process is alive after its panic")
	}
	k.Close()
}

// TestSlowFaultDelaysMessages: a slow fault's latency reaches the messages
// sent while it is on (and MaxDelay's bound), and none sent after it ends:
// send and MaxDelay look at the slow faults only while one is on.
func TestSlowFaultDelaysMessages(t *testing.T) {
	k := NewKernel(1)
	n := k.NewNetwork(time.Millisecond, 0)
	arrival := func() time.Duration {
		var at time.Duration
		n.Send("x", "y", func() { at = k.Now() })
		start := k.Now()
		for k.Step() {
		}
		return at - start
	}
	if d := arrival(); d != time.Millisecond {
		t.Fatalf("no slow fault: delivered after %v, want 1ms", d)
	}
	id := n.AddSlow("y", 10*time.Millisecond, 0)
	if d := arrival(); d != 11*time.Millisecond {
		t.Errorf("slow fault on: delivered after %v, want 11ms", d)
	}
	if d := n.MaxDelay("x", "y"); d != 11*time.Millisecond {
		t.Errorf("slow fault on: MaxDelay %v, want 11ms", d)
	}
	n.EndSlow(id)
	if d := arrival(); d != time.Millisecond {
		t.Errorf("slow fault ended: delivered after %v, want 1ms", d)
	}
	if d := n.MaxDelay("x", "y"); d != time.Millisecond {
		t.Errorf("slow fault ended: MaxDelay %v, want 1ms", d)
	}
}
