package sim

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkKernelEvents is the kernel's raw event rate: every event
// schedules the next one a little later, so the queue stays small and the
// cost is one heap push, one pop and one call.
func BenchmarkKernelEvents(b *testing.B) {
	k := NewKernel(1)
	var tick func()
	tick = func() { k.After(time.Millisecond, tick) }
	k.After(0, tick)
	b.ReportAllocs()
	for b.Loop() {
		k.Step()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/event")
}

// BenchmarkKernelEventsDeepQueue is the same with 1000 pending events, as in
// a scenario with many clients and timers.
func BenchmarkKernelEventsDeepQueue(b *testing.B) {
	k := NewKernel(1)
	var tick func()
	tick = func() { k.After(time.Duration(1+k.Steps()%997)*time.Millisecond, tick) }
	for range 1000 {
		k.After(0, tick)
	}
	b.ReportAllocs()
	for b.Loop() {
		k.Step()
	}
}

// BenchmarkProcPark is one park and wake of a simulated thread (a coroutine
// switch each way plus an event), the cost of every simulated sleep or RPC.
func BenchmarkProcPark(b *testing.B) {
	k := NewKernel(1)
	g := k.NewGroup("g")
	g.Spawn("p", 0, func(p *Proc) {
		for {
			p.Sleep(time.Millisecond)
		}
	})
	b.ReportAllocs()
	for b.Loop() {
		k.Step()
	}
	b.StopTimer()
	k.Close()
}

// BenchmarkKernelRequests is the kernel's side of the RPCs of
// counter-30x200-loopback, without Redis or coroutines: 30 clients, each
// sending a request over a 50us link with 20us of jitter, arming a 1s
// timeout that the reply stops, and after every third reply sleeping 50ms
// (a retry) before the next request. An op is one event.
func BenchmarkKernelRequests(b *testing.B) {
	k := NewKernel(1)
	net := k.NewNetwork(50*time.Microsecond, 20*time.Microsecond)
	type client struct {
		name            string
		timer           Timer
		replies         int
		send, arrive    func()
		reply, timedOut func()
	}
	for i := range 30 {
		c := &client{name: fmt.Sprintf("c%d", i)}
		c.timedOut = func() { b.Fatal("a timeout fired") }
		c.send = func() {
			net.Send(c.name, "redis", c.arrive)
			c.timer = k.After(time.Second, c.timedOut)
		}
		c.arrive = func() { net.Send("redis", c.name, c.reply) }
		c.reply = func() {
			c.timer.Stop()
			if c.replies++; c.replies%3 == 0 {
				k.After(50*time.Millisecond+time.Duration(c.replies%7)*time.Millisecond, c.send)
				return
			}
			c.send()
		}
		k.At(time.Duration(i)*time.Microsecond, c.send)
	}
	b.ReportAllocs()
	for b.Loop() {
		k.Step()
	}
}
