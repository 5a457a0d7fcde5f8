package views

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/lockstep-sim/lockstep/faults"
)

// KeyMap is every binding of the run and compare views; it implements
// help.KeyMap so the help bubble lists exactly what works.
type KeyMap struct {
	Play, Step, Back, Faster, Slower, NextMark, Focus, Up, Down  key.Binding
	Home, End, Goto                                              key.Binding
	Pause, Hang, Jump, Drift, Crash, Failover, Isolate, Slow     key.Binding
	Partition, Evict, Detail                                     key.Binding
	Write, Mermaid, Compare, ZoomIn, ZoomOut, Picker, Help, Quit key.Binding
}

// DefaultKeys are the bindings documented in docs/tui.md.
func DefaultKeys() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, tr(desc)))
	}
	return KeyMap{
		Play:      b("space", "play/pause", " "),
		Step:      b("n/→", "next step", "n", "right"),
		Back:      b("b/←", "step back", "b", "left"),
		Home:      b("home", "start of the run", "home"),
		End:       b("end", "end of the run", "end"),
		Goto:      b(":", "go to time or #step", ":"),
		Faster:    b("]", "speed ×2", "]"),
		Slower:    b("[", "speed ÷2", "["),
		NextMark:  b("g", "next fault/violation", "g"),
		Focus:     b("tab", "focus panel", "tab"),
		Up:        b("↑", "select/scroll up", "up"),
		Down:      b("↓", "select/scroll down", "down"),
		Pause:     b("p", "inject GC pause", "p"),
		Hang:      b("h", "inject hang", "h"),
		Jump:      b("j", "inject clock jump", "j"),
		Drift:     b("d", "inject drift", "d"),
		Crash:     b("x", "inject crash", "x"),
		Failover:  b("f", "inject failover", "f"),
		Isolate:   b("i", "inject isolate", "i"),
		Slow:      b("s", "inject slow link", "s"),
		Partition: b("P", "inject partition", "P"),
		Evict:     b("e", "inject evict (master)", "e"),
		Write:     b("w", "write scenario YAML", "w"),
		Mermaid:   b("m", "write Mermaid diagram", "m"),
		Compare:   b("c", "compare strategies", "c"),
		ZoomIn:    b("+", "zoom timeline in", "+", "="),
		ZoomOut:   b("-", "zoom timeline out", "-"),
		Detail:    b("v", "violation in full", "v"),
		Picker:    b("esc", "back to scenarios", "esc"),
		Help:      b("?", "all keys", "?"),
		Quit:      b("q", "quit", "q", "ctrl+c"),
	}
}

// ShortHelp is the one-line help under the run view.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Play, k.Step, k.Back, k.NextMark, k.Jump, k.Help, k.Quit}
}

// pair is two opposite bindings as one line of help ("↑/↓ select/scroll"),
// so the help page fits a small terminal.
func pair(keys, desc string, a, b key.Binding) key.Binding {
	return key.NewBinding(key.WithKeys(append(a.Keys(), b.Keys()...)...), key.WithHelp(keys, desc))
}

// FullHelp is the `?` page, in columns by purpose. Opposite keys share a
// line, and so do home, end and :, so that the page fits the minimum size.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Play, k.Step, k.Back, k.jumps(), pair("] [", tr("speed ×2 ÷2"), k.Faster, k.Slower), k.NextMark},
		{k.Focus, pair("↑ ↓", tr("select/scroll"), k.Up, k.Down), pair("+ -", tr("zoom timeline in/out"), k.ZoomIn, k.ZoomOut), k.Detail},
		{k.Pause, k.Hang, k.Jump, k.Drift},
		{k.Crash, k.Failover, k.Evict, k.Isolate, k.Partition, k.Slow},
		{k.Write, k.Mermaid, k.Compare, k.Picker, k.Help, k.Quit},
	}
}

// jumps is home, end and : as one line of help, on the run and the
// compare view alike.
func (k KeyMap) jumps() key.Binding {
	return key.NewBinding(key.WithKeys(append(append(k.Home.Keys(), k.End.Keys()...), k.Goto.Keys()...)...),
		key.WithHelp("home/end", tr("start/end (: go to)")))
}

// faultKey is a key that injects a fault kind at the cursor.
type faultKey struct {
	binding key.Binding
	kind    faults.Kind
}

// faultKeys are the keys that inject faults, each with its kind.
func (k KeyMap) faultKeys() []faultKey {
	return []faultKey{
		{k.Pause, faults.Pause}, {k.Jump, faults.ClockJump}, {k.Crash, faults.Crash},
		{k.Failover, faults.Failover}, {k.Isolate, faults.Isolate}, {k.Hang, faults.Hang},
		{k.Drift, faults.ClockDrift}, {k.Slow, faults.Slow}, {k.Partition, faults.Partition},
		{k.Evict, faults.Evict},
	}
}
