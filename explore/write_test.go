package explore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
)

// TestWriteReplays: a written counterexample loads, expects safe: false, and
// replays the shrunk run exactly (same trace hash), so `lockstep run -f` on
// it passes.
func TestWriteReplays(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out", "nested")
	s := testScenario(t, "small")
	res := explored(t, Config{Scenario: s, Strategies: []string{"lua-release", "redlock"}, Runs: 120, Seed: 3, OutDir: dir,
		File: "testdata/worlds.yaml"})
	for _, sr := range res.Strategies {
		cx := sr.Counterexample
		if cx == nil {
			t.Errorf("%s: no violation in %d runs", sr.Strategy, sr.Runs)
			continue
		}
		want := filepath.Join(dir, "small-"+sr.Strategy+"-3.yaml")
		if cx.File != want {
			t.Fatalf("written to %q, want %q", cx.File, want)
		}
		f, err := scenario.LoadFile(cx.File)
		if err != nil {
			t.Fatal(err)
		}
		got := f.Scenarios[0]
		if got.Lock.Strategy != sr.Strategy || got.Redis.Nodes != sr.Nodes || len(got.Faults) != len(cx.Faults) {
			t.Errorf("%s: file has strategy %s, %d nodes, %d faults", sr.Strategy, got.Lock.Strategy, got.Redis.Nodes, len(got.Faults))
		}
		if len(got.Expect) != 1 || got.Expect[0].Metric != "safe" || got.Expect[0].Raw != "false" {
			t.Errorf("%s: expect %+v, want safe: false", sr.Strategy, got.Expect)
		}
		for _, want := range []string{"Found by lockstep explore -f testdata/worlds.yaml -s small", "Faults:", "lockstep run -f " + cx.File} {
			if !strings.Contains(got.Story, want) {
				t.Errorf("%s: story lacks %q:\n%s", sr.Strategy, want, got.Story)
			}
		}
		r, err := scenario.NewRunner(got, scenario.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		rep := r.Run()
		r.Close()
		if !rep.OK || rep.TraceHash != cx.TraceHash {
			t.Errorf("%s: replay ok %t, trace %s, want %s", sr.Strategy, rep.OK, rep.TraceHash, cx.TraceHash)
		}
	}
}

func TestOutDirUnusable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Explore(t.Context(), Config{Scenario: testScenario(t, "small"), Runs: 1, OutDir: filepath.Join(file, "sub")})
	if err == nil || !strings.Contains(err.Error(), "--out") {
		t.Errorf("Explore with a file as --out parent: %v", err)
	}
}
