package scenario

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxErrorLen bounds every load error's text: one line a terminal shows
// whole, however large the value that caused it.
const maxErrorLen = 1000

// checkOneLine asserts the shape every load error must have, whatever the
// input: one line, no control characters, not too long.
func checkOneLine(t *testing.T, name string, err error) {
	t.Helper()
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\r") || len(msg) > maxErrorLen || !utf8.ValidString(msg) {
		t.Errorf("%s: error is not one short line (%d bytes): %.200q", name, len(msg), msg)
	}
	for _, r := range msg {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			t.Errorf("%s: error holds control character %U: %.200q", name, r, msg)
			break
		}
	}
}

// TestHostileCorpus loads every file of testdata/hostile: each must be
// refused with exactly the one-line error of its .want file
// ("LINE:COL: message"): alias bombs, values that overflow, control
// characters, encodings, configurations that would run for ever, deep
// nesting, tabs, duplicate keys, designs no strategy runs.
func TestHostileCorpus(t *testing.T) {
	files, _ := filepath.Glob("../testdata/hostile/*.yaml")
	if len(files) < 30 {
		t.Fatalf("found %d hostile files", len(files))
	}
	for _, path := range files {
		want, err := os.ReadFile(strings.TrimSuffix(path, ".yaml") + ".want")
		if err != nil {
			t.Errorf("%s has no .want file: %v", path, err)
			continue
		}
		_, err = LoadFile(path)
		if err == nil {
			t.Errorf("%s: loaded, want %s", path, want)
			continue
		}
		if got, w := err.Error(), path+":"+strings.TrimSpace(string(want)); got != w {
			t.Errorf("\n got  %s\n want %s", got, w)
		}
		checkOneLine(t, path, err)
	}
}

// Inputs too large to commit are generated: a 3 MiB value is quoted in 40
// characters, a file over the size limit is refused at 1:1, a key longer
// than YAML's 1024-character limit for a plain key is refused on its line.
func TestHostileGenerated(t *testing.T) {
	huge := strings.Repeat("x", 3<<20)
	cases := []struct {
		name, yaml, want string
	}{
		{"3 MiB target", base + "    faults: [{at: 1s, crash: {target: " + huge + "}}]\n",
			`7:39: unknown target "` + strings.Repeat("x", 40) + `…" (known: A, redis-1)`},
		{"3 MiB title of escapes", base + "    title: \"" + strings.Repeat(`\e`, 1<<20) + "\"\n",
			`7:12: title holds a control character, a line break or invalid UTF-8 ("\x1b"); a title is one line of plain text`},
		{"3 MiB duration", base + "    seed: 1\n    network: {latency: " + huge + "}\n",
			`8:24: network.latency: "` + strings.Repeat("x", 40) + `…" is not a duration (durations look like 1.5s, 250ms, 2m, 1h30m)`},
		{"3 MiB unknown key", base + "    x" + strings.Repeat("y", 1<<20) + ": 1\n", "7:1: invalid YAML: could not find expected ':'"},
		{"over the size limit", "# " + strings.Repeat("x", MaxFileSize) + "\n", "1:1: file is larger than the limit of 4194304 bytes (4 MiB)"},
		{"unknown target among many", head + lockOK + "    clients:\n" + repeat(64, "      - {name: client_with_a_long_name_%02d, work: 1s}\n") + "    faults: [{at: 1s, crash: {target: B}}]\n",
			`71:39: unknown target "B" (known: ` + strings.TrimSuffix(repeat(14, "client_with_a_long_name_%02d, "), ", ") + `… and 51 more)`},
		{"300000 lines", strings.Repeat("\n", 300_000) + base + "    redis: {nodes: 10}\n", "300007:20: redis.nodes must be between 1 and 9 (got 10)"},
		{"deep nesting", base + "    title: " + strings.Repeat("{a: ", 50000) + "\n", "7:1: invalid YAML: exceeded max depth of 10000"},
	}
	for _, c := range cases {
		_, err := Load("big.yaml", []byte(c.yaml))
		if err == nil {
			t.Errorf("%s: loaded", c.name)
			continue
		}
		if got := err.Error(); got != "big.yaml:"+c.want {
			t.Errorf("%s:\n got  %.600s\n want big.yaml:%.600s", c.name, got, c.want)
		}
		checkOneLine(t, c.name, err)
	}
}

// A path that cannot be read is one line "FILE: cannot read: why", never Go's
// "open FILE: ..." (which repeats the path), and errors.Is still sees why.
func TestLoadFileErrors(t *testing.T) {
	dir := t.TempDir()
	unreadable := filepath.Join(dir, "secret.yaml")
	if err := os.WriteFile(unreadable, []byte(base), 0o000); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path, want string
		is         error
	}{
		{"", `"": no scenario file named (the path is empty)`, fs.ErrNotExist},
		{filepath.Join(dir, "missing.yaml"), filepath.Join(dir, "missing.yaml") + ": cannot read: no such file", fs.ErrNotExist},
		{dir, dir + ": cannot read: is a directory", nil},
		{filepath.Join(dir, "missing", "x.yaml"), filepath.Join(dir, "missing", "x.yaml") + ": cannot read: no such file", fs.ErrNotExist},
		{"bad\x1bname.yaml", `bad\x1bname.yaml: cannot read: no such file`, fs.ErrNotExist},
	}
	if os.Geteuid() != 0 { // root reads anything
		cases = append(cases, struct {
			path, want string
			is         error
		}{unreadable, unreadable + ": cannot read: permission denied", fs.ErrPermission})
	}
	for _, c := range cases {
		_, err := LoadFile(c.path)
		if err == nil {
			t.Errorf("%q: loaded", c.path)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%q:\n got  %s\n want %s", c.path, err, c.want)
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%q: errors.Is(%v, %v) is false", c.path, err, c.is)
		}
		var le *LoadError
		if !errors.As(err, &le) {
			t.Errorf("%q: %T is not a *LoadError", c.path, err)
		}
		checkOneLine(t, c.path, err)
	}
}

// A UTF-8 byte-order mark is allowed (editors write one), and CRLF or CR
// line ends count as one line each in positions.
func TestLoadTextForms(t *testing.T) {
	if _, err := Load("bom.yaml", []byte("\xEF\xBB\xBF"+base)); err != nil {
		t.Errorf("UTF-8 BOM: %v", err)
	}
	crlf := strings.ReplaceAll(base, "\n", "\r\n") + "    redis: {nodes: 10}\r\n"
	if _, err := Load("crlf.yaml", []byte(crlf)); err == nil || !strings.HasPrefix(err.Error(), "crlf.yaml:7:20: ") {
		t.Errorf("CRLF: %v", err)
	}
	cr := strings.ReplaceAll(base, "\n", "\r") + "    title: \x00\r"
	if _, err := Load("cr.yaml", []byte(cr)); err == nil || !strings.HasPrefix(err.Error(), "cr.yaml:7:12: ") {
		t.Errorf("CR: %v", err)
	}
}
