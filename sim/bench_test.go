package sim

import (
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
