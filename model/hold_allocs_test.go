package model_test

import (
	"testing"
)

// maxHoldAllocs is what one uncontended hold may allocate through the whole
// simulator (the BenchmarkHoldCycle world), on average, rounded down as
// testing.AllocsPerRun does: its token is made with 63 others in one
// string (holdTokens), so 1/64 of an allocation. Everything else on
// the path (the lease, which reuses the last hold's leaseBox
// (Client.recycle), requests, replies, timers, kernel events, the
// resource's read and write, trace lines, effects, the checker's grant
// record, which reuses the grant that ended before it) reuses storage, so
// a new allocation per hold shows up here.
const maxHoldAllocs = 0

// TestHoldCycleAllocs counts, not times: allocations per hold, averaged
// over 2000 holds of a world that has run 1000 already (its pools and
// buffers grown).
func TestHoldCycleAllocs(t *testing.T) {
	w := holdWorld(t, 1_000_000)
	holds := int64(0)
	hold := func() {
		holds++
		for w.Chk.Metrics().Acquired < holds && w.K.Step() {
		}
	}
	for range 1000 {
		hold()
	}
	got := testing.AllocsPerRun(2000, hold)
	if got > maxHoldAllocs {
		t.Fatalf("a hold cycle allocates %.2f times, want at most %d", got, maxHoldAllocs)
	}
	t.Logf("%.2f allocations per hold", got)
}
