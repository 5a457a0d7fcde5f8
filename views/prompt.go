package views

import (
	"errors"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/termtext"
)

// prompt asks for the numbers a fault needs (how long, how far, how fast)
// before it is injected at the cursor.
type prompt struct {
	kind   faults.Kind
	ask    *faults.Prompt // the kind's question and how to read the answer
	target string
	node   bool
	procs  []string // every process, for a partition's "rest"
	label  string
	def    string // the answer an empty field means
	input  textinput.Model
	err    string // why the last answer was refused; cleared by an edit
}

// newPrompt prepares the question for kind on target, as the kind's spec
// asks it (faults.Spec.Prompt); nil when the fault needs no answer and can
// be injected at once. watchdog says whether the scenario's lock has one (a
// hang leaves it running).
func newPrompt(kind faults.Kind, target string, node, watchdog bool) *prompt {
	spec := faults.Lookup(kind)
	if spec == nil || spec.Prompt == nil || (spec.Prompt.NodeOnly && !node) {
		return nil
	}
	q := spec.Prompt
	p := &prompt{kind: kind, target: target, node: node, ask: q}
	format, args := q.Question(termtext.Escape(target), watchdog)
	p.label = tr(format, args...)
	p.def = q.Default(target)
	ti := textinput.New()
	ti.Prompt = ""
	// The default is a placeholder, not a value: typing replaces it, and
	// enter on an empty field takes it.
	ti.Placeholder = p.def
	ti.CharLimit = 24
	ti.Width = 14
	if q.Wide {
		ti.CharLimit, ti.Width = 120, 30 // the field scrolls past its width
	}
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
	err := p.ask.Parse(v, p.procs, &f)
	var refused *faults.PromptError
	if errors.As(err, &refused) { // said in the TUI's language
		err = errors.New(tr(refused.Format, refused.Args...))
	}
	return f, err
}
