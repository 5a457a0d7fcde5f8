package scenario_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"

	"github.com/lockstep-sim/lockstep/model"
)

// Every bundled scenario tells its story and states what it expects; the
// literature table (literature_test.go) checks that the expectations hold.
func TestBundledScenariosAreDocumented(t *testing.T) {
	for _, s := range scenariotest.File(t).Scenarios {
		if s.Title == "" || s.Story == "" || len(s.Expect) == 0 {
			t.Errorf("%s: needs a title, a story and expectations", s.Name)
		}
	}
}

// The headline: a failover loses the single-instance lock, not Redlock's.
func TestCompareFailoverHeadline(t *testing.T) {
	s := scenariotest.Scenario(t, "failover-single-vs-redlock")
	cmp, err := runner.Compare(s, runner.DefaultCompare, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	single, red := cmp.Columns[0], cmp.Columns[1]
	if single.Strategy != "lua-release" || single.Verdict() != "UNSAFE" || single.Nodes != 1 {
		t.Errorf("single column: %s %s on %d nodes", single.Strategy, single.Verdict(), single.Nodes)
	}
	if red.Strategy != "redlock" || red.Verdict() != "SAFE" || red.Nodes != 5 {
		t.Errorf("redlock column: %s %s on %d nodes", red.Strategy, red.Verdict(), red.Nodes)
	}
	if len(single.FaultsBefore) != 2 || !strings.Contains(single.Why, "B acquired while A") {
		t.Errorf("single why %q after %v", single.Why, single.FaultsBefore)
	}
	if !strings.Contains(red.Why, "refused without a valid quorum") || !strings.Contains(red.Why, "ok redis-1-r1; taken") {
		t.Errorf("redlock why %q", red.Why)
	}
	if !cmp.OK() || len(red.Expectations) != 0 || len(single.Expectations) == 0 {
		t.Errorf("expectations belong to the lua-release column only: %v / %v", single.Expectations, red.Expectations)
	}

	var text bytes.Buffer
	cmp.WriteText(&text)
	for _, want := range []string{"verdict             UNSAFE       SAFE", "nodes               1            5",
		"lua-release: UNSAFE", "redlock: SAFE", "after: 0.012s failover of redis-1"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}

	js, err := json.Marshal(cmp.Columns)
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(js, &objs); err != nil {
		t.Fatal(err)
	}
	for i, o := range objs {
		for _, f := range []string{"strategy", "safe", "violations", "lost_updates", "trace_hash", "expectations", "nodes", "why"} {
			if _, ok := o[f]; !ok {
				t.Errorf("column %d JSON lacks %q", i, f)
			}
		}
	}
}

// Faults name nodes: redis-1 is the single instance and Redlock's first
// node alike; a node one world lacks is skipped there and reported.
func TestCompareNodeMappingAndSkips(t *testing.T) {
	s := &scenario.Scenario{
		Name: "mapping", Seed: 1, Duration: 10 * time.Second,
		Network: scenario.Network{Latency: time.Millisecond},
		Redis:   scenario.Redis{Nodes: 1, Persistence: "none", Clock: "wall"},
		Lock: scenario.Lock{Key: "k", Strategy: "lua-release", TTL: 5 * time.Second, Timeout: time.Second, Fencing: "none",
			Redlock: scenario.Redlock{DriftFactor: 0.01, RequestTimeout: 50 * time.Millisecond}},
		Clients: []scenario.Client{{Name: "A", Holds: 1, Work: time.Second}},
		Faults: []faults.Fault{
			{Kind: faults.Crash, Target: "redis-1"},
			{At: 500 * time.Millisecond, Kind: faults.Crash, Target: "redis-4"},
		},
	}
	cmp, err := runner.Compare(s, runner.DefaultCompare, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	single, red := cmp.Columns[0], cmp.Columns[1]
	// The crash of redis-1 takes the single instance's only node...
	if single.Acquired != 0 || single.FailedAcquires != 1 {
		t.Errorf("single: acquired %d failed %d, want 0 and 1", single.Acquired, single.FailedAcquires)
	}
	// ...and one of Redlock's five: 4 of 5 is still a majority.
	if red.Acquired != 1 {
		t.Errorf("redlock: acquired %d, want 1", red.Acquired)
	}
	if len(single.Skipped) != 1 || !strings.Contains(single.Skipped[0], "redis-4") {
		t.Errorf("single skipped %v, want the crash of redis-4", single.Skipped)
	}
	if len(red.Skipped) != 0 {
		t.Errorf("redlock skipped %v, want none", red.Skipped)
	}
	var text bytes.Buffer
	cmp.WriteText(&text)
	if !strings.Contains(text.String(), "skipped: crash redis-4 skipped") {
		t.Errorf("text does not report the skipped fault:\n%s", text.String())
	}
}

// Kleppmann's K1: a GC pause longer than the TTL breaks every lock with a
// TTL. (setnx-del has none: its key never expires, so it is safe and stuck
// instead, and is left out.)
func TestCompareGCPauseUnsafeForEveryTTLStrategy(t *testing.T) {
	s := scenariotest.Scenario(t, "redlock-k1-gc-pause")
	cmp, err := runner.Compare(s, []string{"setnx-expire", "set-del", "lua-release", "redlock"}, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmp.Columns {
		if c.Safe || c.LostUpdates < 1 {
			t.Errorf("%s: safe=%v lost_updates=%d, want unsafe with a lost update", c.Strategy, c.Safe, c.LostUpdates)
		}
	}
	fenced := scenariotest.Scenario(t, "redlock-k1-gc-pause-fenced")
	cmp, err = runner.Compare(fenced, []string{"lua-release", "redlock"}, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmp.Columns {
		if c.FencingRejections < 1 || c.LostUpdates != 0 {
			t.Errorf("%s fenced: rejections %d lost %d", c.Strategy, c.FencingRejections, c.LostUpdates)
		}
	}
}

// Columns are deterministic: the same comparison twice gives the same traces.
func TestCompareDeterministic(t *testing.T) {
	s := scenariotest.Scenario(t, "redlock-k3-clock-jump")
	a, err := runner.Compare(s, runner.DefaultCompare, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := runner.Compare(s, runner.DefaultCompare, scenario.Options{})
	for i := range a.Columns {
		if a.Columns[i].TraceHash != b.Columns[i].TraceHash {
			t.Errorf("%s: trace differs between runs", a.Columns[i].Strategy)
		}
	}
}

func TestCheckStrategies(t *testing.T) {
	if err := runner.CheckStrategies([]string{"lua-release", "redlock"}); err != nil {
		t.Error(err)
	}
	for _, bad := range [][]string{nil, {"paxos"}, {"redlock", "redlock"}} {
		if runner.CheckStrategies(bad) == nil {
			t.Errorf("CheckStrategies(%v) accepted", bad)
		}
	}
}

func TestNodesFor(t *testing.T) {
	for _, c := range []struct {
		strategy string
		nodes    int
		want     int
	}{
		{model.StrategyRedlock, 1, 5}, {model.StrategyRedlock, 2, 5}, {model.StrategyRedlock, 3, 3},
		{model.StrategyRedlock, 7, 7}, {model.StrategyLuaRelease, 1, 1}, {model.StrategyLuaRelease, 5, 5},
	} {
		if got := scenario.NodesFor(c.strategy, c.nodes); got != c.want {
			t.Errorf("NodesFor(%s, %d) = %d, want %d", c.strategy, c.nodes, got, c.want)
		}
	}
}
