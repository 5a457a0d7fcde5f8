package explore

import (
	"context"
	"testing"
	"time"
)

// BenchmarkExploreRuns measures search throughput on the world: five
// Redlock masters, three clients, 60 s simulated, pauses, clock jumps and
// partitions, two workers (run with -cpu 2 for "2 cores"). It reports runs/s;
// shrinking is left out.
func BenchmarkExploreRuns(b *testing.B) {
	s := testScenario(b, "redlock-5x3")
	cfg, err := Config{Scenario: s, Workers: 2, Kinds: parseKinds(b, "pause,clock_jump,partition")}.withDefaults()
	if err != nil {
		b.Fatal(err)
	}
	w := NewWorld(s, s.Lock.Strategy)
	g := &Generator{W: w, Kinds: cfg.Kinds, MaxFaults: cfg.MaxFaults, Seed: 1}
	b.ResetTimer()
	start := time.Now()
	cfg.Runs = b.N
	out := []*StrategyResult{{tally: tally{best: -1}}}
	if err := search(context.Background(), cfg, []*Generator{g}, out); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "runs/s")
}
