package views

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// gotoPrompt is the ":" prompt: go to a true time ("12.5s", "340ms",
// "1m2s"; a bare number is seconds) or a step ("#340", as the header counts
// them). A bad answer keeps the prompt open with the text and says why.
type gotoPrompt struct {
	input textinput.Model
	err   string
}

// gotoLimit bounds what may be typed: a time or a step number is short.
const gotoLimit = 24

func newGotoPrompt() *gotoPrompt {
	ti := textinput.New()
	ti.Prompt = ""
	ti.Placeholder = "12.5s or #340"
	ti.CharLimit = gotoLimit
	ti.Width = gotoLimit
	ti.Focus()
	return &gotoPrompt{input: ti}
}

// parseGoto reads an answer to the ":" prompt for a run of steps steps that
// ends at end: a step (isStep) or a true time.
func parseGoto(s string, steps int, end time.Duration) (step int, at time.Duration, isStep bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, 0, false, fmt.Errorf("type a time like 12.5s or a step like #340")
	}
	if n, ok := strings.CutPrefix(s, "#"); ok {
		i, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || i < 0 || i > steps {
			return 0, 0, false, fmt.Errorf("%q: a step is a whole number from #0 to #%d", s, steps)
		}
		return i, 0, true, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != f { // NaN is no time
			return 0, 0, false, fmt.Errorf("%q: not a time (12.5s, 340ms, 1m2s) or a step (#340)", s)
		}
		if f < 0 || f > end.Seconds() {
			return 0, 0, false, fmt.Errorf("%q: the run is from 0s to %s", s, secs(end))
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d < 0 || d > end {
		return 0, 0, false, fmt.Errorf("%q: the run is from 0s to %s", s, secs(end))
	}
	return 0, d, false, nil
}

// updateGoto handles a key while the ":" prompt is open.
func (m *RunModel) updateGoto(msg tea.KeyMsg) tea.Cmd {
	switch msg.Type {
	case tea.KeyEsc:
		m.jump = nil
		m.setStatus(true, "cancelled")
		return nil
	case tea.KeyCtrlC:
		return tea.Quit
	case tea.KeyEnter:
		step, at, isStep, err := parseGoto(m.jump.input.Value(), m.pl.Steps(), m.pl.End())
		if err != nil {
			m.jump.err = err.Error()
			return nil
		}
		m.jump = nil
		if isStep {
			m.pl.Seek(step)
		} else {
			m.pl.SeekTime(at)
		}
		return m.seeked()
	}
	m.jump.err = ""
	var cmd tea.Cmd
	m.jump.input, cmd = m.jump.input.Update(msg)
	return cmd
}

// gotoFooter is the footer line while the ":" prompt is open.
func (m *RunModel) gotoFooter(w int) string {
	st := m.c.st
	line := st.Focus.Render("go to time or step: ") + m.jump.input.View()
	if m.jump.err != "" {
		return fit(line+"  "+st.Bad.Render("✖ "+m.jump.err), w)
	}
	return fit(line+st.Muted.Render("  enter go · esc cancel"), w)
}
