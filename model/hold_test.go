package model_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
)

// holdWorld is one client holding an uncontended Lua-release lock `holds`
// times on one node, 1ms from it, with no end in simulated time.
func holdWorld(tb testing.TB, holds int) *model.World {
	tb.Helper()
	w, err := model.NewWorld(model.Config{
		Seed:     1,
		Duration: time.Duration(1<<62 - 1),
		Latency:  time.Millisecond,
		Nodes:    model.NodesConfig{Masters: 1},
		Lock: model.LockConfig{Key: key, Strategy: model.StrategyLuaRelease, TTL: 30 * time.Second,
			Timeout: time.Second},
		Clients: []model.ClientConfig{{Name: "A", Holds: holds}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(w.Close)
	return w
}

// BenchmarkHoldCycle is one uncontended lock hold through the whole
// simulator: SET NX PX, the resource's read and write, the Lua release
// (four requests, eight network messages, four timeouts armed and stopped,
// the client's coroutine parked and resumed for each), with the checker
// and the trace hash running. It is the per-command cost of the engine
// and the Redis model together, to set beside BenchmarkRawDispatch (one
// command in miniredis alone).
func BenchmarkHoldCycle(b *testing.B) {
	w := holdWorld(b, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for w.K.Step() {
	}
	b.StopTimer()
	if got := w.Chk.Metrics().Acquired; got != int64(b.N) {
		b.Fatalf("acquired %d of %d", got, b.N)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(4*b.N), "ns/request")
}

// A long run's memory does not grow with its length: nothing keeps a
// record per hold (the checker once kept every token it had seen).
func TestMemoryFlatOverHolds(t *testing.T) {
	const warm, more = 10_000, 50_000
	w := holdWorld(t, warm+more)
	heapAfter := func(holds int64) uint64 {
		for w.Chk.Metrics().Acquired < holds && w.K.Step() {
		}
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heapAfter(warm)
	after := heapAfter(warm + more)
	if got := w.Chk.Metrics().Acquired; got != warm+more {
		t.Fatalf("acquired %d", got)
	}
	// 50 000 holds at even 20 bytes each would be 1 MB.
	if after > before && after-before > 256<<10 {
		t.Fatalf("heap grew by %d KiB over %d holds (%d -> %d bytes)", (after-before)>>10, more, before, after)
	}
}
