package views

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/textinput"

	"github.com/lockstep-sim/lockstep/faults"
)

// prompt asks for the one number a fault needs (how long, how far) before it
// is injected at the cursor.
type prompt struct {
	kind   faults.Kind
	target string
	node   bool
	label  string
	def    string // the answer an empty field means
	input  textinput.Model
}

// newPrompt prepares the question for kind on target; nil when the fault
// needs no answer and can be injected at once.
func newPrompt(kind faults.Kind, target string, node bool) *prompt {
	p := &prompt{kind: kind, target: target, node: node}
	def := ""
	switch kind {
	case faults.Pause:
		p.label, def = fmt.Sprintf("GC pause %s for", target), "35s"
	case faults.ClockJump:
		p.label, def = fmt.Sprintf("jump %s's clock by (±)", target), "+20s"
	case faults.Isolate:
		p.label, def = fmt.Sprintf("isolate %s for", target), "10s"
	case faults.Crash:
		if !node {
			return nil
		}
		p.label, def = fmt.Sprintf("crash %s; restart after (0s: stays down)", target), "0s"
	default:
		return nil
	}
	ti := textinput.New()
	ti.Prompt = ""
	// The default is a placeholder, not a value: typing replaces it, and
	// enter on an empty field takes it.
	ti.Placeholder = def
	p.def = def
	ti.CharLimit = 16
	ti.Width = 10
	ti.Focus()
	p.input = ti
	return p
}

// fault reads the answer into a fault (its At is set when injected).
func (p *prompt) fault() (faults.Fault, error) {
	f := faults.Fault{Kind: p.kind, Target: p.target}
	v := strings.TrimSpace(p.input.Value())
	if v == "" {
		v = p.def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return f, fmt.Errorf("%q is not a duration (try 35s, 1.5s, -5s)", v)
	}
	switch p.kind {
	case faults.Pause, faults.Isolate:
		if d <= 0 {
			return f, fmt.Errorf("%s needs a positive duration", p.kind)
		}
		f.For = d
	case faults.ClockJump:
		if d == 0 {
			return f, fmt.Errorf("a clock jump of 0 changes nothing")
		}
		f.By = d
	case faults.Crash:
		if d < 0 {
			return f, fmt.Errorf("restart after must not be negative")
		}
		f.RestartAfter = d
	}
	return f, nil
}
