package redis

import (
	"strconv"
	"testing"

	"github.com/lockstep-sim/lockstep/sim"
)

// A master without replicas keeps reusing its effects' storage, also
// across commands that wrote nothing (a refused SET NX between two
// writes, as under contention): the writes of a run take turns in two
// buffers instead of allocating one each.
func TestShipReusesStorageAfterNoWrite(t *testing.T) {
	k := sim.NewKernel(1)
	c := NewCluster(k, k.NewNetwork(0, 0), Config{Masters: 1}, nopObserver{})
	m := c.Shards[0].Master
	do := func(args ...string) []Effect {
		if _, err := m.Do(c.Now(), "client", args...); err != nil {
			t.Fatal(err)
		}
		effs := m.TakeEffects()
		c.Ship(m, effs)
		return effs
	}
	buffers := map[*Effect]bool{}
	for i := range 20 {
		effs := do("SET", "k", strconv.Itoa(i))
		if len(effs) != 1 {
			t.Fatalf("SET recorded %d effects, want 1", len(effs))
		}
		buffers[&effs[0]] = true
		if effs := do("SET", "k", "w", "NX"); len(effs) != 0 {
			t.Fatalf("a refused SET NX recorded %d effects", len(effs))
		}
	}
	if len(buffers) > 2 {
		t.Fatalf("20 writes used %d buffers for their effects, want at most 2", len(buffers))
	}
}
