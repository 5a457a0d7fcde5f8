package explore

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// explored runs a search and fails the test on error.
func explored(t *testing.T, cfg Config) *Result {
	t.Helper()
	res, err := Explore(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWorkersSameResult: the result (rates, kinds, counterexample) does not
// depend on the number of workers.
func TestWorkersSameResult(t *testing.T) {
	s := testScenario(t, "small")
	cfg := Config{Scenario: s, Strategies: []string{"lua-release", "set-del"}, Runs: 150, Seed: 3}
	cfg.Workers = 1
	one := asJSON(t, explored(t, cfg))
	cfg.Workers = 2
	two := asJSON(t, explored(t, cfg))
	if one != two {
		t.Fatalf("--workers 1 and 2 differ:\n%s\n---\n%s", one, two)
	}
	if !strings.Contains(one, `"counterexample"`) {
		t.Errorf("no counterexample found in 150 runs; the test proves less than it should:\n%s", one)
	}
}

// TestInterrupted: cancelling mid-search reports the finished runs and still
// returns the violation found, unshrunk.
func TestInterrupted(t *testing.T) {
	s := testScenario(t, "small")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{Scenario: s, Runs: 2000, Seed: 3, Workers: 2, OutDir: t.TempDir(),
		Progress: func(done, total int) {
			if done >= 300 {
				cancel()
			}
		}}
	res, err := Explore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sr := res.Strategies[0]
	if !res.Interrupted || sr.Runs < 300 || sr.Runs >= 2000 {
		t.Fatalf("interrupted %t after %d runs", res.Interrupted, sr.Runs)
	}
	cx := sr.Counterexample
	if cx == nil {
		t.Fatal("no counterexample kept")
	}
	if cx.Shrunk || cx.File == "" || len(cx.Faults) != len(cx.OriginalFaults) {
		t.Errorf("counterexample after interrupt: shrunk %t, file %q, %d of %d faults", cx.Shrunk, cx.File, len(cx.Faults), len(cx.OriginalFaults))
	}
}

func TestConfigErrors(t *testing.T) {
	s := testScenario(t, "small")
	for name, cfg := range map[string]Config{
		"no scenario":        {},
		"unknown strategy":   {Scenario: s, Strategies: []string{"zookeeper"}},
		"negative runs":      {Scenario: s, Runs: -1},
		"failover, no slave": {Scenario: s, Kinds: parseKinds(t, "failover")},
	} {
		if _, err := Explore(context.Background(), cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
