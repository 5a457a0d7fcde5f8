package explore

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// TestWriteReplays: a written counterexample loads, expects safe: false, and
// replays the shrunk run exactly (same trace hash), so `lockstep run -f` on
// it passes.
func TestWriteReplays(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out", "nested")
	s := testScenario(t, "small")
	// A translation of the base scenario's text does not describe the counterexample.
	s.I18n = &scenario.I18n{Zh: &scenario.Text{Title: "小世界", Story: "基础场景的故事。"}}
	res := explored(t, Config{Scenario: s, Strategies: []string{"lua-release", "redlock"}, Runs: 120, Seed: 3, OutDir: dir,
		File: "testdata/worlds.yaml"})
	for _, sr := range res.Strategies {
		cx := sr.Counterexample
		if cx == nil {
			t.Errorf("%s: no violation in %d runs", sr.Strategy, sr.Runs)
			continue
		}
		want := filepath.Join(dir, FileName(res, sr.Strategy)+".yaml")
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
		if got.I18n != nil {
			t.Errorf("%s: the counterexample kept the base scenario's translation %+v", sr.Strategy, got.I18n.Zh)
		}
		if len(got.Expect) != 1 || got.Expect[0].Metric != "safe" || got.Expect[0].Raw != "false" {
			t.Errorf("%s: expect %+v, want safe: false", sr.Strategy, got.Expect)
		}
		for _, want := range []string{"Found by lockstep explore -f testdata/worlds.yaml -s small", "Faults:", "lockstep run -f " + cx.File} {
			if !strings.Contains(got.Story, want) {
				t.Errorf("%s: story lacks %q:\n%s", sr.Strategy, want, got.Story)
			}
		}
		r, err := runner.New(got, scenario.Options{}, false)
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

// TestWriteNeverOverwrites: a second search with the same flags writes
// beside the first file (-2), one with other flags under another name, and
// the first file is left byte for byte as it was.
func TestWriteNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	s := testScenario(t, "small")
	cfg := Config{Scenario: s, Runs: 60, Seed: 3, OutDir: dir}
	first := explored(t, cfg).Strategies[0].Counterexample
	if first == nil {
		t.Fatal("no counterexample in 60 runs; the test proves nothing")
	}
	before, err := os.ReadFile(first.File)
	if err != nil {
		t.Fatal(err)
	}
	again := explored(t, cfg).Strategies[0].Counterexample
	if want := strings.TrimSuffix(first.File, ".yaml") + "-2.yaml"; again.File != want {
		t.Errorf("same flags again wrote %s, want %s", again.File, want)
	}
	cfg.MaxFaults = 3
	other := explored(t, cfg).Strategies[0].Counterexample
	if other != nil && (other.File == first.File || other.File == again.File) {
		t.Errorf("--max-faults 3 wrote %s, a name of the earlier search", other.File)
	}
	if after, _ := os.ReadFile(first.File); string(after) != string(before) {
		t.Errorf("%s was changed by a later search", first.File)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// TestFileNameHasEveryParameter: each flag that decides a search changes
// the counterexample's name.
func TestFileNameHasEveryParameter(t *testing.T) {
	base := Result{Scenario: "small", Seed: 3, Runs: 100, MaxFaults: 4, Kinds: []string{"pause"}, Budget: 1000}
	seen := map[string]string{FileName(&base, "redlock"): "base"}
	for name, change := range map[string]func(*Result){
		"seed":       func(r *Result) { r.Seed = 4 },
		"runs":       func(r *Result) { r.Runs = 101 },
		"max-faults": func(r *Result) { r.MaxFaults = 5 },
		"faults":     func(r *Result) { r.Kinds = []string{"pause", "crash"} },
		"budget":     func(r *Result) { r.Budget = 2000 },
	} {
		r := base
		change(&r)
		n := FileName(&r, "redlock")
		if prev, dup := seen[n]; dup {
			t.Errorf("changing %s gives the name of %s: %s", name, prev, n)
		}
		seen[n] = name
	}
}

// A counterexample's name is its scenario's name too: with the longest
// scenario name the loader takes and every parameter at its largest, the
// written file must still load.
func TestFileNameLoads(t *testing.T) {
	long := strings.Repeat("ab-", scenario.MaxNameLen)[:scenario.MaxNameLen]
	res := Result{Scenario: long, Seed: math.MaxUint64, Runs: MaxRuns, MaxFaults: MaxMaxFaults,
		Kinds: []string{"pause"}, Budget: scenario.MaxEventBudget}
	name := FileName(&res, "lua-release")
	if len(name) > scenario.MaxNameLen {
		t.Fatalf("name %q is %d bytes, over the loader's %d", name, len(name), scenario.MaxNameLen)
	}
	yaml := "version: 1\nscenarios:\n  - name: " + name + "\n    duration: 1s\n" +
		"    lock: {key: k, strategy: lua-release, ttl: 1s}\n    clients: [{name: A, work: 1s}]\n"
	if _, err := scenario.Load("x.yaml", []byte(yaml)); err != nil {
		t.Fatalf("the counterexample's name does not load: %v", err)
	}
}
