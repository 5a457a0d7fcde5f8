package scenario_test

import (
	"encoding/json"
	"testing"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// The judge reads a history, not the world: gc-pause-wrong-delete's
// commands (with what they did to the lock key), client events and
// resource reads and writes, recorded, turned into plain data and fed to a
// fresh judge that was never attached to a world, give that scenario's
// metrics and first violation, as its transcript has them.
func TestJudgeReadsRecordedHistory(t *testing.T) {
	s := scenariotest.Scenario(t, "gc-pause-wrong-delete")
	r, err := runner.New(s, scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var history []judge.Event
	r.World().Tap(func(e judge.Event) { history = append(history, e) })
	r.Run()

	data, err := json.Marshal(history) // plain data: nothing points back into the world
	if err != nil {
		t.Fatal(err)
	}
	var replay []judge.Event
	if err := json.Unmarshal(data, &replay); err != nil {
		t.Fatal(err)
	}
	kinds := map[judge.Kind]int{}
	j := judge.New(judge.Config{Nodes: []string{"redis-1"}, Clients: []string{"A", "B", "C"}, Quorum: 1})
	for i := range replay {
		e := &replay[i]
		if e.Probe != nil || (e.Kind >= judge.Restarted && e.Kind <= judge.NodeClockRate) {
			t.Fatalf("event %d (%+v): a probe or a node fault in a history of commands and client events", i, *e)
		}
		kinds[e.Kind]++
		j.Feed(e)
	}
	if kinds[judge.Command] == 0 || kinds[judge.EnterCS] != 3 || kinds[judge.ResourceWrite] == 0 {
		t.Fatalf("history has %v events by kind: not the run's", kinds)
	}

	want := model.Metrics{Safe: false, Violations: 2, LostUpdates: 2, WrongReleases: 1, Acquired: 3, MaxWait: 25052000000, UnheldReleases: 2,
		Throughput: 59} // 3 holds done by 50.5s
	if got := j.Metrics(); got != want || got != r.Metrics() {
		t.Errorf("replayed metrics %+v\nwant (transcript) %+v\nrun %+v", got, want, r.Metrics())
	}
	const first = "30.052s: B acquired while A (paused since 1.000s) still believed it held the lock (its lease on redis-1 expired at 30.001s)"
	if got := j.FirstViolation(); got != first {
		t.Errorf("first violation %q, want %q", got, first)
	}
}
