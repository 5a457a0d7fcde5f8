// Package jump is the ":" prompt of the run and compare views: go to a
// true time or a step. It reads and checks the answer and keeps the
// prompt open with a reason while the answer is wrong; where the cursor
// then goes is the view's.
package jump

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/views/text"
)

// Prompt is the ":" prompt: go to a true time ("12.5s", "340ms",
// "1m2s"; a bare number is seconds) or a step ("#340", as the header counts
// them). A bad answer keeps the prompt open with the text and says why.
type Prompt struct {
	input textinput.Model
	err   string
}

// gotoLimit bounds what may be typed: a time or a step number is short.
const gotoLimit = 24

// New opens the prompt; steps: the view can go to a step too.
func New(steps bool) *Prompt {
	ti := textinput.New()
	ti.Prompt = ""
	ti.Placeholder = "12.5s or #340"
	if !steps {
		ti.Placeholder = "12.5s"
	}
	ti.CharLimit = gotoLimit
	ti.Width = gotoLimit
	ti.Focus()
	return &Prompt{input: ti}
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

// Answer is where an answered ":" prompt goes: a step or a true time.
type Answer struct {
	Step   int
	At     time.Duration
	IsStep bool
}

// Update handles a key while the prompt is open, for a run of steps steps
// (-1: the view has no one step count, so only times are answered) that
// ends at end. closed: the prompt is done, with ans nil when it was
// cancelled; cmd is the input's, or tea.Quit for ctrl+c. The run and the
// compare view both read their ":" through it.
func (g *Prompt) Update(msg tea.KeyMsg, steps int, end time.Duration) (ans *Answer, closed bool, cmd tea.Cmd) {
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
		return &Answer{Step: step, At: at, IsStep: isStep}, true, nil
	}
	g.err = ""
	g.input, cmd = g.input.Update(msg)
	return nil, false, cmd
}

// Footer is the footer line while the prompt is open; what says what it
// goes to (tr("time or step")).
func (g *Prompt) Footer(st text.Styles, what string, w int) string {
	line := st.Focus.Render(tr("go to ")+what+": ") + g.input.View()
	if g.err != "" {
		return text.Fit(line+"  "+st.Bad.Render("✖ "+g.err), w)
	}
	return text.Fit(line+st.Muted.Render(tr("  enter go · esc cancel")), w)
}

// Value is the answer as typed so far.
func (g *Prompt) Value() string { return g.input.Value() }

// Err is why the last answer was refused ("" when none was, or it has been
// edited since).
func (g *Prompt) Err() string { return g.err }

// tr renders the prompt's chrome in the current language (internal/i18n).
func tr(format string, args ...any) string { return i18n.T(format, args...) }
