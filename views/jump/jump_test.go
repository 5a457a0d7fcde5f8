package jump

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// parseGoto reads a step (#N, 0..steps) or a true time (a duration, or
// bare seconds) within the run, and refuses the rest with a reason.
func TestParseGoto(t *testing.T) {
	const steps, end = 40, 50 * time.Second
	for _, c := range []struct {
		in     string
		step   int
		at     time.Duration
		isStep bool
	}{
		{"#0", 0, 0, true}, {" # 40 ", 40, 0, true}, {"12.5s", 0, 12500 * time.Millisecond, false},
		{"340ms", 0, 340 * time.Millisecond, false}, {"7", 0, 7 * time.Second, false}, {"50s", 0, end, false},
	} {
		step, at, isStep, err := parseGoto(c.in, steps, end)
		if err != nil || step != c.step || at != c.at || isStep != c.isStep {
			t.Errorf("%q: %d %v %v %v, want %d %v %v", c.in, step, at, isStep, err, c.step, c.at, c.isStep)
		}
	}
	for _, bad := range []string{"", "#41", "#-1", "#x", "51s", "-1", "NaN", "soon"} {
		if _, _, _, err := parseGoto(bad, steps, end); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A view without one step count (compare) refuses a step and keeps the
// prompt open with the answer and the reason; an edit clears the reason.
func TestPromptRefusesStepsWithoutCount(t *testing.T) {
	g := New(false)
	for _, r := range "#3" {
		g.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}, -1, time.Minute)
	}
	ans, closed, _ := g.Update(tea.KeyMsg{Type: tea.KeyEnter}, -1, time.Minute)
	if ans != nil || closed || g.Value() != "#3" || g.Err() == "" {
		t.Fatalf("step in compare: ans %v closed %v value %q err %q", ans, closed, g.Value(), g.Err())
	}
	g.Update(tea.KeyMsg{Type: tea.KeyBackspace}, -1, time.Minute)
	if g.Err() != "" {
		t.Fatalf("an edit kept the reason %q", g.Err())
	}
}
