package redsync_test

import (
	"os"
	"testing"

	"github.com/lockstep-sim/lockstep/harness"
)

// TestBenchmarkHarnessRedsync is BenchmarkHarnessRedsync: a 60s world, 3
// redsync clients (defaults: 8s expiry, 32 tries) locking in a loop on 5
// masters. synctest.Test needs a *testing.T, so it is a test measuring
// with testing.Benchmark, run when LOCKSTEP_BENCH is set:
//
//	LOCKSTEP_BENCH=1 go test -run Benchmark -v .
//
// harness.Run runs the world twice (the determinism check): one world is
// half of ns/op.
func TestBenchmarkHarnessRedsync(t *testing.T) {
	if os.Getenv("LOCKSTEP_BENCH") == "" {
		t.Skip("set LOCKSTEP_BENCH=1 to measure")
	}
	var rep harness.Report
	r := testing.Benchmark(func(b *testing.B) {
		for range b.N {
			rep = harness.Run(t, harness.Config{File: "testdata/bench.yaml", Scenario: "redsync-60s"}, factory())
		}
	})
	t.Logf("harness.Run (two worlds): %s; one world %.3f s; %d kernel events, %d synctest.Wait rounds, %d trace events, acquired %d",
		r, float64(r.NsPerOp())/2e9, rep.KernelEvents, rep.WaitRounds, rep.Events, rep.Acquired)
}
