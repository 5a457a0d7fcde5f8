package model_test

import (
	"slices"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// TestLateResourceRequestKeepsItsLease: a hold's lease storage is reused by
// the next hold (Client.recycle) only when nothing can still read it. A
// read that timed out is still on its way and reads its lease when it
// arrives (fencing: cas stamps the counter with the lease's token), so it
// must stamp hold 1's token, not the one hold 2 wrote into reused storage.
func TestLateResourceRequestKeepsItsLease(t *testing.T) {
	w, err := model.NewWorld(model.Config{
		Seed: 1, Duration: time.Minute, Latency: time.Millisecond,
		Links: []sim.Link{{From: "A", To: model.ResourceName, Latency: 1500 * time.Millisecond}},
		Nodes: model.NodesConfig{Masters: 1},
		Lock: model.LockConfig{Key: key, Strategy: model.StrategyLuaRelease, TTL: 30 * time.Second,
			Timeout: time.Second, Fencing: "cas"},
		Clients: []model.ClientConfig{{Name: "A", Holds: 2}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var stamped []string
	w.K.Trace().Subscribe(func(e sim.Event) {
		if e.ID == "read-stamped" {
			for _, a := range e.Args {
				if a.Key == "token" {
					stamped = append(stamped, a.Str)
				}
			}
		}
	})
	for w.K.Step() {
	}
	if want := []string{"A-1", "A-2"}; !slices.Equal(stamped, want) {
		t.Fatalf("late reads stamped %v, want %v (each its own hold's token)", stamped, want)
	}
}
