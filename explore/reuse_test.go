package explore

import (
	"slices"
	"testing"
)

// Worlds reuse the stores of finished worlds (store.Release): the trace of
// run i must not depend on which runs came before it on the same
// goroutine. Each run's trace hash is taken once in index order and once in
// reverse, interleaved with runs of another strategy whose nodes leave
// other keys, scripts and TTLs behind; a store that is not emptied
// properly changes the hashes.
func TestRunDoesNotDependOnEarlierRuns(t *testing.T) {
	kinds := parseKinds(t, "pause,clock_jump,clock_drift,partition,crash,failover")
	gens := []*Generator{
		{W: NewWorld(testScenario(t, "redlock-5x3"), "redlock"), Kinds: kinds, MaxFaults: 3, Seed: 11},
		{W: NewWorld(testScenario(t, "single-failover"), "lua-release"), Kinds: kinds, MaxFaults: 3, Seed: 12},
	}
	const runs = 6
	hashes := func(order []int) map[[2]int]string {
		out := map[[2]int]string{}
		for _, i := range order {
			for g, gen := range gens {
				rep, err := runHashed(gen.W, gen.Schedule(i))
				if err != nil {
					t.Fatal(err)
				}
				if rep.TraceHash == "" {
					t.Fatal("a hashed run without a trace hash")
				}
				out[[2]int{g, i}] = rep.TraceHash
			}
		}
		return out
	}
	order := []int{0, 1, 2, 3, 4, 5}
	fwd := hashes(order)
	slices.Reverse(order)
	back := hashes(order)
	for k, h := range fwd {
		if back[k] != h {
			t.Errorf("strategy %d run %d: trace hash %s after the later runs, %s after the earlier ones", k[0], k[1], back[k], h)
		}
	}
	if len(fwd) != 2*runs {
		t.Fatalf("%d runs", len(fwd))
	}
}
