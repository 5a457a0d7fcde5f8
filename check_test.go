package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// check judges run --trace's output like run: gc-pause-wrong-delete's
// trace gives that scenario's report (exit 1 without --expect: unsafe;
// exit 0 with its own expectation); bad lines exit 2 with FILE:LINE.
func TestCheckCommand(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "gc.jsonl")
	if code, _, errs := runCLI(t, "run", "-s", "gc-pause-wrong-delete", "--trace", tr); code != exitOK {
		t.Fatalf("run: exit %d %s", code, errs)
	}
	code, out, _ := runCLI(t, "check", tr)
	if code != exitFailed || !strings.Contains(out, "UNSAFE") || !strings.Contains(out, "wrong_releases 1") ||
		!strings.Contains(out, "reproduce: lockstep check "+tr) {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "check", "--json", "--expect", "{safe: false, violations: 2, lost_updates: 2}", tr)
	var reps []map[string]any
	if err := json.Unmarshal([]byte(out), &reps); err != nil || code != exitOK || len(reps) != 1 ||
		reps[0]["violations"] != 2.0 || reps[0]["trace_hash"] == "" || reps[0]["ok"] != true {
		t.Errorf("check --json --expect: exit %d %v\n%s", code, err, out)
	}
	bad := writeFile(t, "bad.jsonl", `{"at_ms": 0, "op": "acquire", "client": "A"}`+"\n{oops\n")
	code, _, errs := runCLI(t, "check", bad)
	if code != exitBadInput || !strings.HasPrefix(errs, "lockstep check: "+bad+":2: ") || strings.Count(errs, "\n") != 1 {
		t.Errorf("bad line: exit %d %q", code, errs)
	}
	for _, args := range [][]string{{"check"}, {"check", filepath.Join(dir, "missing.jsonl")}, {"check", tr, "--expect", "speed: 1"}, {"check", tr, tr}} {
		if code, _, errs := runCLI(t, args...); code != exitBadInput || !strings.HasPrefix(errs, "lockstep check: ") {
			t.Errorf("%v: exit %d %q", args, code, errs)
		}
	}
	if code, out, _ := runCLI(t, "help", "check"); code != exitOK || !strings.Contains(out, "history-format.md") {
		t.Errorf("help check: exit %d %q", code, out)
	}
}
