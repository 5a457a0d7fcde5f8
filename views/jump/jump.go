package views

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/lockstep-sim/lockstep/views/text"
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

// newGotoPrompt opens the prompt; steps: the view can go to a step too.
func newGotoPrompt(steps bool) *gotoPrompt {
	ti := textinput.New()
	ti.Prompt = ""
	ti.Placeholder = "12.5s or #340"
	if !steps {
		ti.Placeholder = "12.5s"
	}
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
			return 0, 0, false, fmt.Errorf("%q: the run is from 0s to %s", s, text.Secs(end))
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d < 0 || d > end {
		return 0, 0, false, fmt.Errorf("%q: the run is from 0s to %s", s, text.Secs(end))
	}
	return 0, d, false, nil
}

// gotoAnswer is where an answered ":" prompt goes: a step or a true time.
type gotoAnswer struct {
	step   int
	at     time.Duration
	isStep bool
}

// update handles a key while the prompt is open, for a run of steps steps
// (-1: the view has no one step count, so only times are answered) that
// ends at end. closed: the prompt is done, with ans nil when it was
// cancelled; cmd is the input's, or tea.Quit for ctrl+c. The run and the
// compare view both read their ":" through it.
func (g *gotoPrompt) update(msg tea.KeyMsg, steps int, end time.Duration) (ans *gotoAnswer, closed bool, cmd tea.Cmd) {
	switch msg.Type {
	case tea.KeyEsc:
		return nil, true, nil
	case tea.KeyCtrlC:
		return nil, true, tea.Quit
	case tea.KeyEnter:
		v := g.input.Value()
		if steps < 0 && strings.HasPrefix(strings.TrimSpace(v), "#") {
			g.err = fmt.Sprintf("%q: the two runs count their own steps; go to a time (12.5s)", strings.TrimSpace(v))
			return nil, false, nil
		}
		step, at, isStep, err := parseGoto(v, max(steps, 0), end)
		if err != nil {
			g.err = err.Error()
			return nil, false, nil
		}
		return &gotoAnswer{step: step, at: at, isStep: isStep}, true, nil
	}
	g.err = ""
	g.input, cmd = g.input.Update(msg)
	return nil, false, cmd
}

// footer is the footer line while the prompt is open; what says what it
// goes to (tr("time or step")).
func (g *gotoPrompt) footer(st text.Styles, what string, w int) string {
	line := st.Focus.Render(tr("go to ")+what+": ") + g.input.View()
	if g.err != "" {
		return text.Fit(line+"  "+st.Bad.Render("✖ "+g.err), w)
	}
	return text.Fit(line+st.Muted.Render(tr("  enter go · esc cancel")), w)
}

// updateGoto handles a key while the run view's ":" prompt is open.
func (m *RunModel) updateGoto(msg tea.KeyMsg) tea.Cmd {
	ans, closed, cmd := m.jump.update(msg, m.pl.Steps(), m.pl.End())
	if !closed {
		return cmd
	}
	m.jump = nil
	if ans == nil {
		if cmd == nil {
			m.setStatus(true, "cancelled")
		}
		return cmd
	}
	if ans.isStep {
		m.pl.Seek(ans.step)
	} else {
		m.pl.SeekTime(ans.at)
	}
	return m.seeked()
}

// gotoFooter is the footer line while the ":" prompt is open.
func (m *RunModel) gotoFooter(w int) string { return m.jump.footer(m.c.st, tr("time or step"), w) }
