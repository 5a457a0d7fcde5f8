package views

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/textinput"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/termtext"
)

// prompt asks for the numbers a fault needs (how long, how far, how fast)
// before it is injected at the cursor.
type prompt struct {
	kind   faults.Kind
	target string
	node   bool
	procs  []string // every process, for a partition's "rest"
	label  string
	def    string // the answer an empty field means
	input  textinput.Model
	err    string // why the last answer was refused; cleared by an edit
}

// newPrompt prepares the question for kind on target; nil when the fault
// needs no answer and can be injected at once. watchdog says whether the
// scenario's lock has one (a hang leaves it running).
func newPrompt(kind faults.Kind, target string, node, watchdog bool) *prompt {
	p := &prompt{kind: kind, target: target, node: node}
	target = termtext.Escape(target)
	def := ""
	switch kind {
	case faults.Pause:
		p.label, def = fmt.Sprintf("GC pause %s for", target), "35s"
	case faults.ClockJump:
		p.label, def = fmt.Sprintf("jump %s's clock by (±)", target), "+20s"
	case faults.Isolate:
		p.label, def = fmt.Sprintf("isolate %s for", target), "10s"
	case faults.Hang:
		p.label, def = fmt.Sprintf("hang %s's work thread for", target), "30s"
		if watchdog {
			p.label = fmt.Sprintf("hang %s's work thread (its watchdog runs on) for", target)
		}
	case faults.ClockDrift:
		p.label, def = fmt.Sprintf("%s's clock runs at × true speed", target), "1.5"
	case faults.Slow:
		p.label, def = fmt.Sprintf("slow %s's links: +latency [loss 0..1] [for]", target), "200ms 0 10s"
	case faults.Partition:
		p.label, def = "partition: groups split by |, then for", p.target+" | rest 10s"
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
	ti.CharLimit = 24
	ti.Width = 14
	if kind == faults.Partition {
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
	switch p.kind {
	case faults.ClockDrift:
		r, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(v, "x"), "×"), 64)
		if err != nil || !(r >= faults.MinRate && r <= faults.MaxRate) {
			return f, fmt.Errorf("%q is not a clock rate from %g to %g (try 1.5 for fast, 0.5 for slow)", v, faults.MinRate, float64(faults.MaxRate))
		}
		f.Rate = r
		return f, nil
	case faults.Slow:
		return p.slow(f, v)
	case faults.Partition:
		return p.partition(f, v)
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return f, fmt.Errorf("%q is not a duration (try 35s, 1.5s, -5s)", v)
	}
	switch p.kind {
	case faults.Pause, faults.Isolate, faults.Hang:
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

// slow reads "latency [loss [for]]", e.g. "200ms", "50ms 0.3", "0s 1 5s"
// (loss alone: every message dropped for 5s); loss defaults to 0 and for
// to 10s.
func (p *prompt) slow(f faults.Fault, v string) (faults.Fault, error) {
	fields := strings.Fields(strings.ReplaceAll(v, ",", " "))
	if len(fields) > 3 {
		return f, fmt.Errorf("%q: give latency, then loss and for if you like (e.g. 200ms 0.1 10s)", v)
	}
	f.Loss, f.For = 0, 10*time.Second
	var err error
	if f.Latency, err = time.ParseDuration(fields[0]); err != nil || f.Latency < 0 {
		return f, fmt.Errorf("%q is not an extra latency (try 200ms)", fields[0])
	}
	if len(fields) > 1 {
		if f.Loss, err = strconv.ParseFloat(fields[1], 64); err != nil || !(f.Loss >= 0 && f.Loss <= 1) {
			return f, fmt.Errorf("%q is not a loss probability from 0 to 1", fields[1])
		}
	}
	if len(fields) > 2 {
		if f.For, err = time.ParseDuration(fields[2]); err != nil || f.For <= 0 {
			return f, fmt.Errorf("%q is not a positive duration", fields[2])
		}
	}
	if f.Latency == 0 && f.Loss == 0 {
		return f, fmt.Errorf("no extra latency and no loss changes nothing")
	}
	return f, nil
}

// partition reads "A redis-1 | B redis-2 [for]": groups of process names
// split by |, the word rest standing for every process not named elsewhere,
// and how long (default 10s). Unknown names are left to the scenario check,
// which lists the known ones.
func (p *prompt) partition(f faults.Fault, v string) (faults.Fault, error) {
	f.Target, f.For = "", 10*time.Second
	parts := strings.Split(v, "|")
	last := strings.Fields(parts[len(parts)-1])
	if n := len(last); n > 0 {
		if d, err := time.ParseDuration(last[n-1]); err == nil {
			if d <= 0 {
				return f, fmt.Errorf("a partition needs a positive duration")
			}
			f.For = d
			parts[len(parts)-1] = strings.Join(last[:n-1], " ")
		}
	}
	named := map[string]bool{}
	rest := -1
	for i, part := range parts {
		g := strings.Fields(strings.ReplaceAll(part, ",", " "))
		if len(g) == 1 && g[0] == "rest" {
			if rest >= 0 {
				return f, fmt.Errorf("rest can stand for one group only")
			}
			rest = i
		}
		for _, n := range g {
			named[n] = true
		}
		f.Groups = append(f.Groups, g)
	}
	if len(f.Groups) < 2 {
		return f, fmt.Errorf("give two groups or more, split by | (e.g. A redis-1 | rest 10s)")
	}
	if rest >= 0 {
		var others []string
		for _, n := range p.procs {
			if !named[n] {
				others = append(others, n)
			}
		}
		if len(others) == 0 {
			return f, fmt.Errorf("rest is empty: every process is in another group")
		}
		f.Groups[rest] = others
	}
	return f, nil
}
