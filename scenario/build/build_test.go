package build

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
)

const file = `version: 1
scenarios:
  - name: s
    duration: 10s
    network:
      links:
        - {from: A, to: redis-1, latency: 30ms, oneway: true}
        - {from: B, to: redis-1, loss: 0.25}
    lock: {key: k, strategy: lua-release, ttl: 5s}
    clients: [{name: A, work: 1s}, {name: B, work: 1s}]
    faults:
      - {at: 2s, pause: {target: A, for: 1s}}
`

func load(t *testing.T) *scenario.Scenario {
	t.Helper()
	f, err := scenario.Load("s.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	return f.Scenarios[0]
}

// TestModelConfig: the file's fields reach the model's configuration: the
// links by direction in file order, the lock, the clients; a comparison's
// strategy gets the masters it needs (NodesFor).
func TestModelConfig(t *testing.T) {
	s := load(t)
	cfg := ModelConfig(s, scenario.Options{})
	if len(cfg.Links) != 3 || cfg.Links[0].From != "A" || cfg.Links[0].Latency != 30*time.Millisecond ||
		cfg.Links[2].From != "redis-1" || cfg.Links[2].To != "B" || cfg.Links[2].Loss != 0.25 {
		t.Errorf("links %+v", cfg.Links)
	}
	if cfg.Lock.Strategy != model.StrategyLuaRelease || cfg.Lock.TTL != 5*time.Second || len(cfg.Clients) != 2 || cfg.Nodes.Masters != 1 {
		t.Errorf("config %+v", cfg)
	}
	rl := ModelConfig(s, scenario.Options{Strategy: model.StrategyRedlock})
	if rl.Lock.Strategy != model.StrategyRedlock || rl.Nodes.Masters != scenario.RedlockNodes {
		t.Errorf("redlock column: strategy %s on %d masters", rl.Lock.Strategy, rl.Nodes.Masters)
	}
}

// TestFaultSchedule: the file's faults in order, then the options' extra
// (injected) ones.
func TestFaultSchedule(t *testing.T) {
	s := load(t)
	extra := faults.Fault{Kind: faults.Crash, At: 5 * time.Second}
	got := FaultSchedule(s, scenario.Options{ExtraFaults: []faults.Fault{extra}})
	if len(got) != 2 || got[0].At != 2*time.Second || got[1].At != 5*time.Second {
		t.Errorf("schedule %+v", got)
	}
}
