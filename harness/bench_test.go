package harness_test

import (
	"os"
	"testing"
	"testing/synctest"
)

// synctest.Test needs a *testing.T, so the harness's benchmarks are tests
// that measure with testing.Benchmark, run when LOCKSTEP_BENCH is set:
//
//	LOCKSTEP_BENCH=1 go test ./harness -run Benchmark -v
func benchEnabled(t *testing.T) {
	if os.Getenv("LOCKSTEP_BENCH") == "" {
		t.Skip("set LOCKSTEP_BENCH=1 to measure")
	}
}

// One round of the harness's loop at its cheapest: wake one goroutine
// (a reply delivered) and wait until every goroutine of the bubble is
// durably blocked again. Every kernel event costs at least this.
func TestBenchmarkSynctestWait(t *testing.T) {
	benchEnabled(t)
	r := testing.Benchmark(func(b *testing.B) {
		synctest.Test(t, func(t *testing.T) {
			ch := make(chan struct{})
			done := make(chan struct{})
			go func() {
				for range ch {
				}
				close(done)
			}()
			for range b.N {
				ch <- struct{}{}
				synctest.Wait()
			}
			close(ch)
			<-done
		})
	})
	t.Logf("one synctest.Wait round: %s (%d ns/op)", r, r.NsPerOp())
}
