package views

import (
	"os"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/lockstep-sim/lockstep/scenario"
)

func TestMain(m *testing.M) {
	// Pin the colour profile: goldens are plain text on every machine.
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// bundled loads a frozen copy of the bundled scenarios, so goldens do not
// change when a story in ../scenarios.yaml is edited.
func bundled(t testing.TB) *scenario.File {
	t.Helper()
	f, err := scenario.LoadFile("testdata/scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// features loads testdata/features.yaml: frozen copies of the bundled
// scenarios that show what the panels draw since issue 13.
func features(t testing.TB) *scenario.File {
	t.Helper()
	f, err := scenario.LoadFile("testdata/features.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// openModel opens name in a fresh TUI of size w×h.
func openModel(t testing.TB, name string, w, h int) *Model {
	t.Helper()
	return openIn(t, bundled(t), name, w, h)
}

// openFeature is openModel on testdata/features.yaml.
func openFeature(t testing.TB, name string, w, h int) *Model {
	t.Helper()
	return openIn(t, features(t), name, w, h)
}

// openIn opens scenario name of f in a fresh TUI of size w×h.
func openIn(t testing.TB, f *scenario.File, name string, w, h int) *Model {
	t.Helper()
	m, err := New(f, Config{Open: name, OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.finishBuild()
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// press sends keys to m and returns the last command. A build a key starts
// (open, compare, inject) is run to completion at once, as the program
// would off the UI goroutine.
func press(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		_, cmd = m.Update(keyMsg(k))
		m.finishBuild()
	}
	return cmd
}

// stepTo steps m's run view until the event count reaches k.
func stepTo(t testing.TB, m *Model, k int) {
	t.Helper()
	for m.Run().Player().Event() < k {
		before := m.Run().Player().Event()
		press(m, "n")
		if m.Run().Player().Event() == before {
			t.Fatalf("stuck at event %d", before)
		}
	}
}

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
