package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const pauseYAML = `version: 1
scenarios:
  - name: pause
    title: A GC pause outlives the lease
    duration: 60s
    lock: {key: k, strategy: set-del, ttl: 10s, retry: {attempts: 30, delay: 1s}}
    clients:
      - {name: A, work: 5s}
      - {name: B, start: 2s, work: 20s}
    faults:
      - at: 1s
        pause: {target: A, for: 15s}
    expect:
      safe: %s
      wrong_releases: ">= 1"
`

func TestRunExitCodes(t *testing.T) {
	ok := writeFile(t, "ok.yaml", strings.Replace(pauseYAML, "%s", "false", 1))
	code, out, _ := runCLI(t, "run", "-f", ok)
	if code != exitOK {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	for _, want := range []string{"pause  [ok]  UNSAFE", "✓ safe false", "first violation:", "1 scenario: 1 ok, 0 failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	bad := writeFile(t, "fail.yaml", strings.Replace(pauseYAML, "%s", "true", 1))
	code, out, _ = runCLI(t, "run", "-f", bad)
	if code != exitFailed || !strings.Contains(out, "✗ safe true (got false)") || !strings.Contains(out, "reproduce: lockstep run -f "+bad+" -s pause --seed 1\n") {
		t.Fatalf("exit %d, want 1 with a ✗ line and a reproduce line:\n%s", code, out)
	}
}

func TestRunBadInputExits2WithFileLine(t *testing.T) {
	cases := map[string]string{
		"unknown field": "version: 1\nscenarios:\n  - name: x\n    duration: 1s\n    lok: {}\n",
		"negative ttl":  "version: 1\nscenarios:\n  - name: x\n    duration: 1s\n    lock: {key: k, strategy: set-del, ttl: -1s}\n    clients: [{name: A, work: 1s}]\n",
		"malformed":     "version: 1\nscenarios: [\n",
	}
	for name, body := range cases {
		p := writeFile(t, "bad.yaml", body)
		code, _, stderr := runCLI(t, "run", "-f", p)
		if code != exitBadInput {
			t.Errorf("%s: exit %d, want 2", name, code)
		}
		if !regexp.MustCompile(`bad\.yaml:\d+:\d+: `).MatchString(stderr) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s: want one FILE:LINE:COL line, got %q", name, stderr)
		}
		if strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "panic") {
			t.Errorf("%s: stack trace in %q", name, stderr)
		}
	}
	if code, _, stderr := runCLI(t, "run", "-s", "no-such-scenario"); code != exitBadInput || !strings.Contains(stderr, "no-such-scenario") {
		t.Errorf("unknown -s: exit %d, %q", code, stderr)
	}
	if code, _, _ := runCLI(t, "run", "--bogus"); code != exitBadInput {
		t.Errorf("unknown flag: exit %d", code)
	}
	if code, _, _ := runCLI(t, "frobnicate"); code != exitBadInput {
		t.Errorf("unknown command: exit %d", code)
	}
	if code, _, _ := runCLI(t, "run", "-f", filepath.Join(t.TempDir(), "missing.yaml")); code != exitBadInput {
		t.Errorf("missing file: exit %d", code)
	}
}

func TestRunJSON(t *testing.T) {
	p := writeFile(t, "ok.yaml", strings.Replace(pauseYAML, "%s", "false", 1))
	code, out, _ := runCLI(t, "run", "-f", p, "--json")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var reps []map[string]any
	if err := json.Unmarshal([]byte(out), &reps); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	if len(reps) != 1 {
		t.Fatalf("%d reports", len(reps))
	}
	for _, k := range []string{"scenario", "strategy", "seed", "safe", "violations", "lost_updates", "fencing_rejections",
		"wrong_releases", "stuck", "acquired", "failed_acquires", "max_wait", "sim_time_ms", "events", "expectations", "ok"} {
		if _, ok := reps[0][k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	exps := reps[0]["expectations"].([]any)
	e := exps[0].(map[string]any)
	if e["field"] != "safe" || e["want"] != "false" || e["got"] != "false" || e["ok"] != true {
		t.Errorf("expectation %v", e)
	}
}

func TestRunTraceIsByteIdentical(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for _, p := range []string{a, b} {
		if code, out, errs := runCLI(t, "run", "-s", "gc-pause-wrong-delete,fencing-token-kleppmann", "--trace", p); code != exitOK {
			t.Fatalf("exit %d\n%s%s", code, out, errs)
		}
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) == 0 || !bytes.Equal(da, db) {
		t.Fatalf("traces differ or are empty (%d, %d bytes)", len(da), len(db))
	}
	ls := strings.Split(string(da), "\n")
	var head, line map[string]any
	if err := json.Unmarshal([]byte(ls[0]), &head); err != nil || head["type"] != "header" || head["scenario"] != "gc-pause-wrong-delete" || head["version"] != 1.0 {
		t.Fatalf("trace header %q: %v", ls[0], err)
	}
	first := ls[1]
	for _, l := range ls[1:] {
		if strings.HasPrefix(l, `{"type":"event"`) {
			first = l
			break
		}
	}
	if err := json.Unmarshal([]byte(first), &line); err != nil || line["scenario"] != "gc-pause-wrong-delete" || line["at_ms"] == nil {
		t.Fatalf("trace line %q: %v", first, err)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"help", "run"}, {"run", "-h"}} {
		code, out, errs := runCLI(t, args...)
		if code != exitOK || !strings.Contains(out+errs, "lockstep") {
			t.Errorf("%v: exit %d, output %q", args, code, out+errs)
		}
	}
}

func TestRunMermaid(t *testing.T) {
	code, out, errs := runCLI(t, "run", "-s", "gc-pause-wrong-delete", "--mermaid")
	if code != exitOK || !strings.HasPrefix(out, "sequenceDiagram") || !strings.Contains(out, "participant redis_1 as redis-1") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
}

// The Lua fast path must not change a run: the same trace hash either way,
// on scenarios that use every kind of script.
func TestLuaModesGiveTheSameTrace(t *testing.T) {
	sel := "watchdog-long-job,fair-fifo,reentrant-nested,fencing-token-kleppmann"
	hashes := func(mode string) []any {
		code, out, errs := runCLI(t, "run", "-s", sel, "--json", "--lua", mode)
		if code != exitOK {
			t.Fatalf("--lua %s: exit %d\n%s", mode, code, errs)
		}
		var reps []map[string]any
		if err := json.Unmarshal([]byte(out), &reps); err != nil {
			t.Fatal(err)
		}
		var hs []any
		for _, r := range reps {
			hs = append(hs, r["trace_hash"])
		}
		return hs
	}
	fast, interp := hashes("fast"), hashes("interpreted")
	if len(fast) != 4 || fmt.Sprint(fast) != fmt.Sprint(interp) {
		t.Fatalf("fast %v, interpreted %v", fast, interp)
	}
	if code, _, _ := runCLI(t, "run", "--lua", "luajit"); code != exitBadInput {
		t.Fatalf("bad --lua: exit %d", code)
	}
}
