package main

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
)

// TestStrategiesLinked: every strategy the format names can be built in
// the program. A strategy in a package of its own (model/redlock) is
// there only because scenario/build.go imports it; this test's binary
// imports nothing else that would link it, so dropping that import fails
// here.
func TestStrategiesLinked(t *testing.T) {
	for _, st := range scenario.Strategies {
		w, err := model.NewWorld(model.Config{Seed: 1, Duration: time.Second, Nodes: model.NodesConfig{Masters: 3},
			Lock:    model.LockConfig{Key: "lock", Strategy: st, TTL: time.Second},
			Clients: []model.ClientConfig{{Name: "A", Holds: 1}}})
		if err != nil {
			t.Errorf("strategy %s: %v", st, err)
			continue
		}
		if got := w.Strategy().Name(); got != st {
			t.Errorf("strategy %s builds a world running %s", st, got)
		}
		w.Close()
	}
}
