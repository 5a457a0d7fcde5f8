package views

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
)

// Golden tests drive the whole program through teatest and compare the
// final model's View (less noise than the byte stream) with
// testdata/<Test>.golden. Regenerate with: go test ./views -update

func runGolden(t *testing.T, cfg Config, w, h int, keys ...string) {
	t.Helper()
	cfg.OutDir = t.TempDir()
	m, err := New(bundled(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	select { // the scenario is built off the UI goroutine
	case <-m.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("the scenario was not built in 10s")
	}
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	golden.RequireEqual(t, []byte(fm.View()))
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
