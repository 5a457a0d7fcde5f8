package scenario

// Test helpers shared by this package's internal tests and its external
// ones (package scenario_test: the tests that run scenarios, through
// scenario/runner, which imports this package; they load the bundled file
// through scenario/scenariotest). The exported names exist only in the
// test binary.

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

var (
	Updating     = updating
	FirstDiff    = firstDiff
	CheckOneLine = checkOneLine
	CheckError   = checkError
	LongestPause = longestPause
)

// The building blocks of inline cases (load_test.go).
const (
	Head      = head
	LockOK    = lockOK
	ClientsOK = clientsOK
	Base      = base
)

// Parsed is the row's lock block, parsed (TestProfileRowsParse).
func (pr *Profile) Parsed() *yaml.Node { return pr.parsed() }

// loadBundled loads the bundled scenario file.
func loadBundled(tb testing.TB) *File {
	tb.Helper()
	_, f := readBundled(tb)
	return f
}

// readBundled is the bundled scenario file's bytes and its full load.
func readBundled(tb testing.TB) ([]byte, *File) {
	tb.Helper()
	data, err := os.ReadFile("../scenarios.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	f, err := Load("scenarios.yaml", data)
	if err != nil {
		tb.Fatal(err)
	}
	return data, f
}

// The views package's golden tests define -update through
// charmbracelet/x/exp/golden; a test binary that links both must not define
// it twice, so it is defined here only if nobody did, and read by name.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files and testdata/transcripts from the current code")
	}
}

// updating reports whether -update was given.
func updating() bool {
	f := flag.Lookup("update")
	if f == nil {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	v, _ := g.Get().(bool)
	return v
}

// diffContext is how many lines firstDiff shows around the first difference.
const diffContext = 3

// firstDiff describes where got first departs from want: the line number,
// a few lines of context, and the differing lines of each; "" if equal.
func firstDiff(want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	w, g := lines(want), lines(got)
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d (- the file, %d lines; + this run, %d lines):\n", i+1, len(w), len(g))
	for j := max(0, i-diffContext); j < i; j++ {
		fmt.Fprintf(&b, "  %6d   %s", j+1, ensureNL(w[j]))
	}
	show := func(mark string, lines []string) {
		end := min(len(lines), i+diffContext)
		if i >= len(lines) {
			fmt.Fprintf(&b, "  %s      (end of text)\n", mark)
		}
		for j := i; j < end; j++ {
			fmt.Fprintf(&b, "  %s%6d  %s", mark, j+1, ensureNL(lines[j]))
		}
	}
	show("-", w)
	show("+", g)
	return b.String()
}

// lines splits text after each newline.
func lines(text []byte) []string {
	l := strings.SplitAfter(string(text), "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// ensureNL ends s with a newline (the last line of a text may lack one).
func ensureNL(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// TestFirstDiffShowsTheFirstDifferingLine: a failing comparison names the
// first differing line with context instead of printing both texts.
func TestFirstDiffShowsTheFirstDifferingLine(t *testing.T) {
	var want, got strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&want, "line %d\n", i)
		if i == 2500 {
			fmt.Fprintf(&got, "line %d changed\n", i)
		} else {
			fmt.Fprintf(&got, "line %d\n", i)
		}
	}
	d := firstDiff([]byte(want.String()), []byte(got.String()))
	for _, s := range []string{"first difference at line 2501", "-  2501  line 2500\n", "+  2501  line 2500 changed\n", "2498   line 2497"} {
		if !strings.Contains(d, s) {
			t.Errorf("diff lacks %q:\n%s", s, d)
		}
	}
	if n := strings.Count(d, "\n"); n > 4*diffContext+2 {
		t.Errorf("diff has %d lines, want a short excerpt:\n%s", n, d)
	}
	if firstDiff([]byte("a\nb\n"), []byte("a\nb\n")) != "" {
		t.Error("equal texts reported as different")
	}
	if d := firstDiff([]byte("a\nb\n"), []byte("a\n")); !strings.Contains(d, "(end of text)") || !strings.Contains(d, "-     2  b") {
		t.Errorf("a shorter text is not shown as ending:\n%s", d)
	}
}
