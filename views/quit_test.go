package views

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// quitTimeout only bounds a test whose quit key is broken: the assertion is
// that the program ends at all, which it does as soon as it reads the key.
const quitTimeout = 60 * time.Second

// quitFrom drives the whole program through teatest: keys bring it to a
// screen, the last key should end it. It fails unless the program ends, its
// final View is blank (nothing drawn from a closed session) and closing
// the runners afterwards, as cmdTUI does, is safe.
func quitFrom(t *testing.T, cfg Config, w, h int, keys ...tea.KeyMsg) *Model {
	t.Helper()
	cfg.OutDir = t.TempDir()
	m, err := New(bundled(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	for _, k := range keys {
		tm.Send(k)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(quitTimeout)).(*Model)
	if v := fm.View(); v != "" {
		t.Fatalf("the last frame after quitting is not blank:\n%s", v)
	}
	fm.Close()
	fm.Close() // twice, as a deferred Close after an explicit one would
	return fm
}

func keys(ks ...string) []tea.KeyMsg {
	out := make([]tea.KeyMsg, len(ks))
	for i, k := range ks {
		out[i] = keyMsg(k)
	}
	return out
}

var ctrlC = tea.KeyMsg{Type: tea.KeyCtrlC}

// Every screen quits with q where q is not text being typed, and with
// ctrl+c everywhere.
func TestQuitFromEveryScreen(t *testing.T) {
	run := Config{Open: "gc-pause-wrong-delete"}
	cmp := Config{Open: "gc-pause-wrong-delete", Compare: [2]string{"set-del", "lua-release"}}
	for _, c := range []struct {
		name string
		cfg  Config
		w, h int
		keys []tea.KeyMsg
	}{
		{"picker q", Config{}, 100, 30, keys("down", "q")},
		{"picker ctrl+c", Config{}, 100, 30, append(keys("down"), ctrlC)},
		{"picker filtering ctrl+c", Config{}, 100, 30, append(keys("/", "g", "c"), ctrlC)},
		{"picker after filter q", Config{}, 100, 30, keys("/", "g", "c", "esc", "q")},
		{"run q", run, 120, 36, keys("n", "n", "n", "q")},
		{"run ctrl+c", run, 120, 36, append(keys("n", "n", "n"), ctrlC)},
		{"run playing q", run, 120, 36, keys("space", "q")},
		{"run detail q", run, 60, 16, keys("g", "g", "v", "q")},
		{"run at the minimum size q", run, MinWidth, MinHeight, keys("n", "q")},
		{"too small q", run, 40, 10, keys("n", "q")},
		{"help q", run, 100, 30, keys("n", "?", "q")},
		{"help ctrl+c", run, 100, 30, append(keys("?"), ctrlC)},
		{"prompt ctrl+c", run, 100, 30, append(keys("n", "j", "1"), ctrlC)},
		{"refused prompt ctrl+c", run, 100, 30, append(keys("n", "j", "a", "enter"), ctrlC)},
		{"compare q", cmp, 140, 40, keys("n", "n", "q")},
		{"compare ctrl+c", cmp, 140, 40, append(keys("n"), ctrlC)},
		{"compare from run q", run, 140, 40, keys("n", "n", "n", "c", "q")},
		{"compare from run, back, q", run, 140, 40, keys("n", "c", "n", "esc", "q")},
		{"compare help q", cmp, 140, 40, keys("?", "q")},
		{"picker then run then picker q", Config{}, 100, 30, keys("enter", "n", "esc", "q")},
	} {
		t.Run(c.name, func(t *testing.T) {
			quitFrom(t, c.cfg, c.w, c.h, c.keys...)
		})
	}
}

// In the picker's filter q is a letter: it is typed, and ctrl+c still
// quits.
func TestQIsTextInFilter(t *testing.T) {
	fm := quitFrom(t, Config{}, 100, 30, append(keys("/", "q"), ctrlC)...)
	if got := fm.picker.FilterValue(); got != "q" {
		t.Fatalf("q in the filter: filter %q, want \"q\"", got)
	}
}

// The prompt holds what was typed when the program ends with ctrl+c.
func TestQTypedIntoPrompt(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	press(m, "n", "P", "q")
	if m.quitting || m.Run().prompt == nil || !strings.HasSuffix(m.Run().prompt.input.Value(), "q") {
		t.Fatalf("q in the prompt: quitting %v, prompt %+v", m.quitting, m.Run().prompt)
	}
	_, cmd := m.Update(ctrlC)
	if !m.quitting || cmd == nil {
		t.Fatal("ctrl+c in the prompt must quit")
	}
}
