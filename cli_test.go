package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lockstep-sim/lockstep/scenario"
)

// oneLine checks that stderr is exactly one line starting "lockstep CMD: ".
func oneLine(t *testing.T, what, cmd, stderr string) {
	t.Helper()
	if !strings.HasPrefix(stderr, "lockstep "+cmd+": ") || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("%s: stderr %q, want one line starting %q", what, stderr, "lockstep "+cmd+": ")
	}
}

// TestFlagsAreBounded: every numeric flag of every command refuses values
// outside its range with one line naming the range, never a crash.
func TestFlagsAreBounded(t *testing.T) {
	x := []string{"-f", worldsFile, "-s", "small"}
	cases := []struct {
		args   []string
		range_ string
	}{
		{append([]string{"explore", "--runs", "1e10"}, x...), "from 1 to 1000000000"},
		{append([]string{"explore", "--runs", "0"}, x...), "from 1 to 1000000000"},
		{append([]string{"explore", "--max-faults", "1000000"}, x...), "from 1 to 100"},
		{append([]string{"explore", "--workers", "100000"}, x...), "from 0 to 256"},
		{append([]string{"explore", "--workers", "-1"}, x...), "from 0 to 256"},
		{append([]string{"explore", "--seed", "-1"}, x...), "from 0 to 18446744073709551615"},
		{append([]string{"explore", "--budget", "0"}, x...), "from 1 to 2000000000"},
		{[]string{"run", "--budget", "3e9"}, "from 1 to 2000000000"},
		{[]string{"run", "--seed", "1e30"}, "from 0 to 18446744073709551615"},
		{[]string{"compare", "-s", "gc-pause-lua-release", "--budget", "x"}, "from 1 to 2000000000"},
		{[]string{"compare", "-s", "gc-pause-lua-release", "--seed", "abc"}, "from 0 to 18446744073709551615"},
		{[]string{"tui", "-s", "gc-pause-lua-release", "--budget", "0"}, "from 1 to 2000000000"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.range_) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the range %q", c.args, code, stderr, c.range_)
		}
		oneLine(t, strings.Join(c.args, " "), c.args[0], stderr)
	}
	// A large but allowed count in the short form is taken as it is.
	if code, _, stderr := runCLI(t, "explore", "--runs", "1e2", "--workers", "1", "-f", worldsFile, "-s", "small", "--json"); code != exitOK {
		t.Errorf("--runs 1e2: exit %d, %s", code, stderr)
	}
}

// TestExploreCountsBudgetExhaustedRuns: runs cut short by --budget are
// counted on their own, and a strategy whose runs were all cut short is not
// reported as free of violations.
func TestExploreCountsBudgetExhaustedRuns(t *testing.T) {
	code, out, stderr := runCLI(t, "explore", "-f", worldsFile, "-s", "small", "--runs", "20", "--budget", "50", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Budget     int64 `json:"event_budget"`
		Strategies []struct {
			Runs      int
			Exhausted struct{ Count int } `json:"budget_exhausted_runs"`
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	n := res.Strategies[0].Exhausted.Count
	if res.Budget != 50 || res.Strategies[0].Runs != 20 || n < 10 {
		t.Errorf("budget %d, %+v: want most of the 20 runs counted as budget exhausted", res.Budget, res.Strategies)
	}
	_, text, _ := runCLI(t, "explore", "-f", worldsFile, "-s", "small", "--runs", "20", "--budget", "50")
	if !strings.Contains(text, fmt.Sprintf("%d runs cut short by the event budget", n)) || strings.Contains(text, "no violation in 20 runs") {
		t.Errorf("text report does not set the %d cut-short runs apart:\n%s", n, text)
	}
}

// TestTraceNeverDestroysAFile: --trace refuses an input (by name, through a
// hard link, through a symbolic link) and an existing file unless --force,
// and writes a new file whole.
func TestTraceNeverDestroysAFile(t *testing.T) {
	dir := t.TempDir()
	body := strings.Replace(pauseYAML, "%s", "false", 1)
	in := filepath.Join(dir, "my.yaml")
	os.WriteFile(in, []byte(body), 0o644)
	hard := filepath.Join(dir, "hard.yaml")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	soft := filepath.Join(dir, "soft.yaml")
	if err := os.Symlink(in, soft); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.jsonl")
	os.WriteFile(other, []byte("keep me"), 0o644)
	for _, args := range [][]string{
		{"run", "-f", in, "--trace", in},
		{"run", "-f", in, "--trace", filepath.Join(dir, ".", "my.yaml")},
		{"run", "-f", in, "--trace", hard, "--force"},
		{"run", "-f", in, "--trace", soft, "--force"},
		{"run", "-f", in, "--trace", other},
		{"run", "-f", in, "--trace", dir},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitBadInput {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		oneLine(t, strings.Join(args, " "), "run", stderr)
	}
	if b, _ := os.ReadFile(in); string(b) != body {
		t.Fatalf("the scenario file was changed:\n%s", b)
	}
	if b, _ := os.ReadFile(other); string(b) != "keep me" {
		t.Fatalf("an existing file was changed without --force: %q", b)
	}
	if code, _, stderr := runCLI(t, "run", "-f", in, "--trace", other, "--force"); code != exitOK {
		t.Fatalf("--force: exit %d %s", code, stderr)
	}
	if b, _ := os.ReadFile(other); !bytes.HasPrefix(b, []byte(`{"scenario":"pause"`)) {
		t.Errorf("--force did not write the trace: %q", b)
	}
	fresh := filepath.Join(dir, "fresh.jsonl")
	if code, _, _ := runCLI(t, "run", "-f", in, "--trace", fresh); code != exitOK {
		t.Fatalf("new trace file: exit %d", code)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if code, out, _ := runCLI(t, "run", "-f", in, "--trace", "-"); code != exitOK || !strings.Contains(out, `"at_ms":`) {
		t.Errorf("--trace - : exit %d\n%s", code, out)
	}
}

// TestExploreReportSurvivesAFailedWrite: when the counterexample cannot be
// written, the report is still printed, then exit 2 with the reason.
func TestExploreReportSurvivesAFailedWrite(t *testing.T) {
	dir := t.TempDir()
	args := []string{"explore", "-f", worldsFile, "-s", "small", "--runs", "100", "--seed", "3", "--out", dir}
	code, out, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d %s", code, stderr)
	}
	first := lineAfter(t, out, "written: ")
	// Take every free name the next search could use.
	base := strings.TrimSuffix(first, ".yaml")
	for i := 2; i <= 999; i++ {
		os.WriteFile(fmt.Sprintf("%s-%d.yaml", base, i), nil, 0o644)
	}
	code, out, stderr = runCLI(t, args...)
	if code != exitBadInput || !strings.Contains(out, "lua-release: of the") || !strings.Contains(stderr, "already exist") {
		t.Errorf("exit %d; stdout:\n%s\nstderr: %s\nwant exit 2, the report, and why nothing was written", code, out, stderr)
	}
	last := stderr[strings.LastIndex(strings.TrimSuffix(stderr, "\n"), "\n")+1:]
	oneLine(t, "failed write", "explore", last)
}

// failWriter fails every write, like a full disk.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestWriteErrorsExit2: output that could not be written is exit 2 with a
// message, for every command and format, and on the real /dev/full.
func TestWriteErrorsExit2(t *testing.T) {
	ok := writeFile(t, "ok.yaml", strings.Replace(pauseYAML, "%s", "false", 1))
	cmds := [][]string{
		{"list"},
		{"run", "-f", ok},
		{"run", "-f", ok, "--json"},
		{"run", "-f", ok, "--trace", "-"},
		{"run", "-f", ok, "--mermaid"},
		{"compare", "-f", ok, "-s", "pause"},
		{"compare", "-f", ok, "-s", "pause", "--json"},
		{"explore", "-f", worldsFile, "-s", "small", "--runs", "10"},
		{"explore", "-f", worldsFile, "-s", "small", "--runs", "10", "--json"},
		{"help"},
	}
	for _, args := range cmds {
		var stderr bytes.Buffer
		code := run(args, failWriter{}, &stderr)
		if code != exitBadInput || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v to a failing stdout: exit %d, stderr %q", args, code, stderr.String())
		}
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	for _, args := range [][]string{{"run", "-f", ok, "--json"}, {"run", "-f", ok, "--trace", "-"}} {
		var stderr bytes.Buffer
		if code := run(args, full, &stderr); code != exitBadInput || stderr.Len() == 0 {
			t.Errorf("%v > /dev/full: exit %d, stderr %q", args, code, stderr.String())
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"run", "-f", ok, "--trace", "/dev/full", "--force"}, io.Discard, &stderr); code != exitBadInput {
		t.Errorf("--trace /dev/full: exit %d, stderr %q", code, stderr.String())
	}
}

// oneJSON decodes out as exactly one JSON value followed by nothing.
func oneJSON(t *testing.T, what, out string) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Errorf("%s: stdout is not JSON: %v\n%s", what, err, out)
		return
	}
	if err := dec.Decode(&v); err != io.EOF {
		t.Errorf("%s: more than one JSON document on stdout (%v)", what, err)
	}
}

// TestJSONStdoutIsOneDocument: --json prints exactly one JSON document, and
// the flags that would mix another format into it are refused.
func TestJSONStdoutIsOneDocument(t *testing.T) {
	ok := writeFile(t, "ok.yaml", strings.Replace(pauseYAML, "%s", "false", 1))
	for _, args := range [][]string{
		{"run", "-f", ok, "--json"},
		{"run", "-s", "gc-pause-lua-release,redlock-k3-clock-jump", "--json"},
		{"compare", "-f", ok, "-s", "pause", "--json"},
		{"explore", "-f", worldsFile, "-s", "small", "--runs", "30", "--json"},
	} {
		_, out, _ := runCLI(t, args...)
		oneJSON(t, strings.Join(args, " "), out)
	}
	for _, args := range [][]string{
		{"run", "-f", ok, "--json", "--trace", "-"},
		{"run", "-f", ok, "--mermaid", "--json"},
		{"run", "-f", ok, "--mermaid", "--trace", "-"},
	} {
		code, out, stderr := runCLI(t, args...)
		if code != exitBadInput || out != "" {
			t.Errorf("%v: exit %d, stdout %q; want 2 and nothing on stdout", args, code, out)
		}
		oneLine(t, strings.Join(args, " "), "run", stderr)
	}
}

// TestTraceStdoutIsJSONLines: with --trace - stdout holds the trace alone,
// a JSON object per line (the reports go to stderr), and at_ms is a number.
func TestTraceStdoutIsJSONLines(t *testing.T) {
	ok := writeFile(t, "ok.yaml", strings.Replace(pauseYAML, "%s", "false", 1))
	code, out, stderr := runCLI(t, "run", "-f", ok, "--trace", "-")
	if code != exitOK || !strings.Contains(stderr, "pause  [ok]") {
		t.Fatalf("exit %d; the report is not on stderr: %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		var line map[string]any
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatalf("stdout line %q: %v", l, err)
		}
		if _, isNum := line["at_ms"].(float64); !isNum {
			t.Fatalf("at_ms is %T in %s, want a number", line["at_ms"], l)
		}
	}
	if len(lines) < 10 {
		t.Errorf("only %d trace lines", len(lines))
	}
}

// hostile has terminal control sequences (retitle, clear screen) in its
// title, story and lock key.
const hostile = `version: 1
scenarios:
  - name: evil
    title: "T \e]0;pwned\a\e[2J end"
    story: "S \e]0;pwned\a\e[2J\nline2"
    duration: 60s
    lock: {key: "k\e[2J", strategy: set-del, ttl: 10s, retry: {attempts: 30, delay: 1s}}
    clients:
      - {name: A, work: 5s}
      - {name: B, start: 2s, work: 20s}
    faults:
      - at: 1s
        pause: {target: A, for: 15s}
    expect:
      safe: true
`

// TestUserTextIsEscaped: no command prints a control character from the
// file raw; the text is still there, escaped.
func TestUserTextIsEscaped(t *testing.T) {
	p := writeFile(t, "evil.yaml", hostile)
	if _, err := scenario.LoadFile(p); err != nil {
		t.Skipf("the loader refuses the hostile file (%v): nothing to print", err)
	}
	for _, args := range [][]string{
		{"list", "-f", p},
		{"run", "-f", p},
		{"run", "-f", p, "--mermaid"},
		{"compare", "-f", p, "-s", "evil"},
		{"explore", "-f", p, "-s", "evil", "--runs", "20"},
	} {
		_, out, stderr := runCLI(t, args...)
		for _, s := range []string{out, stderr} {
			if strings.ContainsAny(s, "\x1b\x07") {
				t.Errorf("%v printed a raw control character:\n%q", args, s)
			}
		}
		if args[0] != "explore" && !strings.Contains(out, `\x1b`) {
			t.Errorf("%v: the escaped text is missing:\n%s", args, out)
		}
	}
}

// TestBadFileArguments: an empty, missing, directory or unreadable -f, an
// empty -s: one line "lockstep CMD: ...", exit 2, never Go's "open ...".
func TestBadFileArguments(t *testing.T) {
	dir := t.TempDir()
	unreadable := filepath.Join(dir, "secret.yaml")
	os.WriteFile(unreadable, []byte("version: 1\n"), 0o000)
	cases := [][]string{{"-f", ""}, {"-f", filepath.Join(dir, "missing.yaml")}, {"-f", dir}, {"-s", ""}, {"-s", "a,,b"}}
	if os.Geteuid() != 0 { // root reads any file
		cases = append(cases, []string{"-f", unreadable})
	}
	for _, cmd := range []string{"run", "list", "compare", "explore"} {
		for _, c := range cases {
			if cmd == "list" && c[0] == "-s" {
				continue
			}
			args := append([]string{cmd}, c...)
			if cmd == "compare" || cmd == "explore" {
				if c[0] == "-f" {
					args = append(args, "-s", "x")
				}
			}
			code, out, stderr := runCLI(t, args...)
			if code != exitBadInput || out != "" {
				t.Errorf("%q: exit %d, stdout %q", args, code, out)
			}
			oneLine(t, fmt.Sprintf("%q", args), cmd, stderr)
			if strings.Contains(stderr, "open ") {
				t.Errorf("%q: Go's bare error: %s", args, stderr)
			}
			if c[0] == "-f" && c[1] != "" && !strings.Contains(stderr, c[1]+": ") {
				t.Errorf("%q: the message does not name the file: %s", args, stderr)
			}
		}
	}
}

// TestListColumns: list's columns are as wide as their longest entry, the
// longest name included, so the strategy column starts at one place.
func TestListColumns(t *testing.T) {
	long := strings.Repeat("n", 40)
	body := "version: 1\nscenarios:\n" +
		"  - {name: a, duration: 1s, lock: {key: k, strategy: set-del, ttl: 1s}, clients: [{name: A, work: 1ms}]}\n" +
		"  - {name: " + long + ", title: Long, duration: 1s, lock: {key: k, strategy: lua-release, ttl: 1s}, clients: [{name: A, work: 1ms}]}\n"
	code, out, stderr := runCLI(t, "list", "-f", writeFile(t, "l.yaml", body))
	if code != exitOK {
		t.Fatalf("exit %d %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	col := func(l, word string) int { return utf8.RuneCountInString(l[:strings.Index(l, word)]) }
	if len(lines) != 2 || col(lines[0], "set-del") != col(lines[1], "lua-release") || !strings.HasPrefix(lines[1], long+"  lua-release") {
		t.Errorf("columns do not line up:\n%s", out)
	}
}

// TestPlurals: counts read "1 scenario", "2 scenarios", "1 strategy".
func TestPlurals(t *testing.T) {
	ok := writeFile(t, "ok.yaml", strings.Replace(pauseYAML, "%s", "false", 1))
	if _, out, _ := runCLI(t, "run", "-f", ok); !strings.Contains(out, "\n1 scenario: 1 ok, 0 failed") {
		t.Errorf("run of one scenario:\n%s", out)
	}
	if _, out, _ := runCLI(t, "run", "-s", "gc-pause-lua-release,redlock-k3-clock-jump"); !strings.Contains(out, "\n2 scenarios: 2 ok") {
		t.Errorf("run of two scenarios:\n%s", out)
	}
	if _, out, _ := runCLI(t, "compare", "-f", ok, "-s", "pause", "--strategies", "set-del"); !strings.Contains(out, "under 1 strategy\n") {
		t.Errorf("compare of one strategy:\n%s", out)
	}
	_, out, _ := runCLI(t, "explore", "-f", worldsFile, "-s", "small", "--runs", "100", "--seed", "3")
	if regexp.MustCompile(`\b1 (runs|faults)\b|\(s\)`).MatchString(out) || !regexp.MustCompile(`runs with a \w+: \d+`).MatchString(out) {
		t.Errorf("explore report:\n%s", out)
	}
}

// TestScenariosDocCounts: docs/scenarios.md's counts (all N; each group's)
// are those of the bundled file and of its own tables.
func TestScenariosDocCounts(t *testing.T) {
	doc, err := os.ReadFile("docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	f, err := loadFile("")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`holds all (\d+), in \w+ groups:\n\n- [^(]*\((\d+) scenarios\);\n- [^(]*\((\d+)\);\n- [^(]*\((\d+)\)[.;]`).FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/scenarios.md no longer says how many scenarios it holds, per group")
	}
	var rows []int
	for _, sec := range regexp.MustCompile(`(?m)^## `).Split(string(doc), -1)[1:4] {
		rows = append(rows, len(regexp.MustCompile("(?m)^\\| `[a-z0-9-]+` \\|").FindAllString(sec, -1)))
	}
	want := []string{fmt.Sprint(len(f.Scenarios)), fmt.Sprint(rows[0]), fmt.Sprint(rows[1]), fmt.Sprint(rows[2])}
	for i, w := range want {
		if string(m[i+1]) != w {
			t.Errorf("docs/scenarios.md says %s where the count is %s (all, then the groups)", m[i+1], w)
		}
	}
}
