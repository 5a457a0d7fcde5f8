package scenario_test

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// Every bundled scenario, exported with an injected fault, loads back and
// replays to the same trace and metrics; its written expectations hold.
func TestExportRoundTrip(t *testing.T) {
	f, err := scenario.LoadFile("../scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range f.Scenarios {
		t.Run(s.Name, func(t *testing.T) {
			o := scenario.Options{ExtraFaults: []faults.Fault{
				{At: s.Duration / 7, Kind: faults.ClockJump, Target: "redis-1", By: 3*time.Second + 1},
				{At: s.Duration / 5, Kind: faults.Pause, Target: s.Clients[0].Name, For: 1500 * time.Millisecond},
			}}
			live, err := runner.New(s, o, false)
			if err != nil {
				t.Fatal(err)
			}
			defer live.Close()
			want := live.Run()
			data, err := scenario.Export(s, o, &want.Metrics)
			if err != nil {
				t.Fatal(err)
			}
			back, err := scenario.Load("exported.yaml", data)
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			r, err := runner.New(back.Scenarios[0], scenario.Options{}, false)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got := r.Run()
			if got.TraceHash != want.TraceHash || got.Metrics != want.Metrics {
				t.Fatalf("replay differs: got %s %+v, want %s %+v\n%s", got.TraceHash, got.Metrics, want.TraceHash, want.Metrics, data)
			}
			if !got.OK {
				t.Fatalf("written expectations fail: %+v", got.Expectations)
			}
			if back.Scenarios[0].Name != s.Name+"-live" {
				t.Fatalf("name %q", back.Scenarios[0].Name)
			}
		})
	}
}

// Without options the export keeps the scenario's name and expectations.
func TestExportUnchanged(t *testing.T) {
	s := scenariotest.Scenario(t, "gc-pause-wrong-delete")
	data, err := scenario.Export(s, scenario.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenario.Load("x.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	b := back.Scenarios[0]
	if b.Name != s.Name || b.Story != s.Story || len(b.Expect) != len(s.Expect) || b.Lock.TTL != s.Lock.TTL {
		t.Fatalf("lost in export:\n%s", data)
	}
}
