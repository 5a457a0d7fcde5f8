package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tui --trace reads the trace before it needs a terminal: a bad, foreign,
// future or truncated file is one "lockstep tui: FILE:LINE: message" line,
// exit 2; a good one gets as far as asking for a terminal.
func TestTUITraceBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	if code, _, errs := runCLI(t, "run", "-s", "gc-pause-wrong-delete", "--trace", good); code != exitOK {
		t.Fatalf("run: exit %d %s", code, errs)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	for _, c := range []struct{ name, body, want string }{
		{"future.jsonl", strings.Replace(string(data), `"version":1`, `"version":9`, 1), ":1: header: trace format version 9 is not supported"},
		{"truncated.jsonl", strings.Join(lines[:len(lines)/2], ""), ": the trace stops without its end record: the file is truncated"},
		{"history.jsonl", `{"at_ms": 0, "op": "acquire", "client": "A"}` + "\n", ":1: the first record is not a trace header"},
		{"long.jsonl", lines[0] + strings.Repeat("z", 1<<20+1) + "\n", ":2: line longer than 1048576 bytes"},
		{"empty.jsonl", "", ":1: empty file"},
	} {
		p := writeFile(t, c.name, c.body)
		code, _, errs := runCLI(t, "tui", "--trace", p)
		if code != exitBadInput || !strings.HasPrefix(errs, "lockstep tui: "+p) || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d %q, want %q", c.name, code, errs, c.want)
		}
	}
	if code, _, errs := runCLI(t, "tui", "--trace", good); code != exitBadInput || !strings.Contains(errs, "needs a terminal") {
		t.Errorf("good trace without a terminal: exit %d %q", code, errs)
	}
	if code, _, errs := runCLI(t, "tui", "--trace", good, "--compare", "a,b"); code != exitBadInput || !strings.Contains(errs, "do not apply") {
		t.Errorf("--trace with --compare: exit %d %q", code, errs)
	}
	two := filepath.Join(dir, "two.jsonl")
	runCLI(t, "run", "-s", "gc-pause-wrong-delete,fencing-token-kleppmann", "--trace", two)
	if code, _, errs := runCLI(t, "tui", "--trace", two); code != exitBadInput || !strings.Contains(errs, "holds 2 traces (gc-pause-wrong-delete, fencing-token-kleppmann): pick one with -s NAME") {
		t.Errorf("two traces: exit %d %q", code, errs)
	}
	if code, _, errs := runCLI(t, "tui", "--trace", two, "-s", "fencing-token-kleppmann"); code != exitBadInput || !strings.Contains(errs, "needs a terminal") {
		t.Errorf("two traces, -s: exit %d %q", code, errs)
	}
}
