package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const worldsFile = "explore/testdata/worlds.yaml"

// TestExploreWritesReplayableCounterexample: explore finds a violation,
// writes it under --out, and `lockstep run -f` on the file exits 0.
func TestExploreWritesReplayableCounterexample(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI(t, "explore", "-f", worldsFile, "-s", "small", "--strategies", "lua-release,redlock",
		"--runs", "100", "--seed", "3", "--workers", "2", "--out", dir)
	if code != exitOK {
		t.Fatalf("explore exit %d\n%s\n%s", code, out, errs)
	}
	for _, st := range []string{"lua-release", "redlock"} {
		path := filepath.Join(dir, "small-"+st+"-s3-r100-m4-3dd176.yaml")
		if !strings.Contains(out, "replay: lockstep run -f "+path) {
			t.Errorf("report does not point at %s:\n%s", path, out)
		}
		if code, out, errs := runCLI(t, "run", "-f", path); code != exitOK {
			t.Errorf("run -f %s: exit %d\n%s\n%s", path, code, out, errs)
		}
	}
}

func TestExploreJSON(t *testing.T) {
	code, out, errs := runCLI(t, "explore", "-f", worldsFile, "-s", "small", "--runs", "50", "--seed", "3", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		Scenario   string
		Strategies []struct {
			Strategy   string
			Runs       int
			Violations struct{ Count, Runs int } `json:"violating_runs"`
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if res.Scenario != "small" || len(res.Strategies) != 1 || res.Strategies[0].Runs != 50 || res.Strategies[0].Violations.Runs != 50 {
		t.Errorf("unexpected JSON: %s", out)
	}
}

func TestExploreBadInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	for _, args := range [][]string{
		{"explore"},
		{"explore", "-s", "nope"},
		{"explore", "-f", worldsFile, "-s", "small", "--faults", "gc"},
		{"explore", "-f", worldsFile, "-s", "small", "--faults", "failover"},
		{"explore", "-f", worldsFile, "-s", "small", "--strategies", "zk"},
		{"explore", "-f", worldsFile, "-s", "small", "--runs", "0"},
		{"explore", "-f", worldsFile, "-s", "small", "--out", filepath.Join(file, "sub")},
		{"explore", "-f", worldsFile, "-s", "small", "extra"},
	} {
		if code, _, errs := runCLI(t, args...); code != exitBadInput || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
	if code, out, _ := runCLI(t, "help", "explore"); code != exitOK || !strings.Contains(out, "Exit codes") {
		t.Errorf("help explore: exit %d\n%s", code, out)
	}
}
