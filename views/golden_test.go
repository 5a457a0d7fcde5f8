package views

import (
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
)

// Golden tests drive the model key by key, as the program would, and
// compare its View with testdata/<Test>.golden. A key that builds a run
// (opening, compare, inject) is built at once here (press runs the pending
// build), so that a golden never catches a build half done. Quitting from
// every screen under the real program loop is quit_test.go's job.
// Regenerate with: go test ./views -update

func runGolden(t *testing.T, cfg Config, w, h int, keys ...string) {
	t.Helper()
	m := newModel(t, bundled(t), cfg, w, h)
	press(m, keys...)
	golden.RequireEqual(t, []byte(m.View()))
}

func repeat(k string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = k
	}
	return out
}

func TestGoldenPicker(t *testing.T) {
	runGolden(t, Config{}, 100, 30, "down", "down", "down")
}

func TestGoldenPickerWide(t *testing.T) {
	runGolden(t, Config{}, 140, 36, "down", "down", "down")
}

func TestGoldenRunAfterSteps(t *testing.T) {
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, 100, 30, repeat("n", 36)...)
}

func TestGoldenRun80x24(t *testing.T) {
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, 80, 24, repeat("n", 31)...)
}

func TestGoldenRunStory(t *testing.T) {
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, 100, 30)
}

func TestGoldenHelp(t *testing.T) {
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, 100, 30, "?")
}

func TestGoldenCompare(t *testing.T) {
	runGolden(t, Config{Open: "gc-pause-wrong-delete", Compare: [2]string{"set-del", "lua-release"}}, 140, 40, repeat("n", 40)...)
}

func TestGoldenTooSmall(t *testing.T) {
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, 50, 12)
}

var _ tea.Model = (*Model)(nil)

// At 120×36 the pinned first violation and the event at the cursor read in
// full (issue 11, item 17).
func TestGoldenRun120x36(t *testing.T) {
	runGolden(t, Config{Open: "gc-pause-lua-release"}, 120, 36, "g", "g")
}

// At the minimum size the timeline keeps its client lanes and the log says
// where the first violation reads in full.
func TestGoldenRunMinSize(t *testing.T) {
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, MinWidth, MinHeight, "g", "g")
}

// v shows the first violation and the cursor's event in full.
func TestGoldenDetailMinSize(t *testing.T) {
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, MinWidth, MinHeight, "g", "g", "v")
}

// A refused answer: the prompt stays open with its text, the reason above it.
func TestGoldenPromptError(t *testing.T) {
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, 80, 24, "n", "j", "a", "b", "c", "enter")
}

// At 120 columns the picker's list has no stray … on its blank lines.
func TestGoldenPicker120(t *testing.T) {
	runGolden(t, Config{}, 120, 36)
}

// ? in the compare view lists its own keys; esc there goes back to the run.
func TestGoldenCompareHelp(t *testing.T) {
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, 120, 36, "n", "c", "?")
}

// The README and docs/tui.md show the view TestGoldenRunAfterSteps pins;
// a changed golden must change them too.
func TestDocsShowTheGolden(t *testing.T) {
	trim := func(s string) string {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		return strings.Join(lines, "\n")
	}
	g, err := os.ReadFile("testdata/TestGoldenRunAfterSteps.golden")
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{"../README.md", "../docs/tui.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		_, rest, ok := strings.Cut(string(b), "```text\n")
		capture, _, _ := strings.Cut(rest, "```")
		if !ok || trim(capture) != trim(string(g)) {
			t.Errorf("%s's capture is not the golden of TestGoldenRunAfterSteps; paste it in:\n%s", doc, g)
		}
	}
}
