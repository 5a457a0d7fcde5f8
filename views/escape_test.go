package views

import (
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/sim"
)

// hostile is what a scenario's text may hold: retitle the terminal, clear
// the screen, ring the bell.
const hostile = "\x1b]0;pwned\x07\x1b[2J"

// noControl fails if v holds any control character but newline. TestMain
// pins the Ascii colour profile, so lipgloss emits no escape of its own:
// any ESC is the scenario's text reaching the terminal raw.
func noControl(t *testing.T, what, v string) {
	t.Helper()
	for i, r := range v {
		if r != '\n' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)) {
			t.Fatalf("%s: raw control %q at byte %d:\n%q", what, r, i, v)
		}
	}
}

// The title and story of a scenario reach the screen escaped on every
// screen that shows them.
func TestUserTextEscaped(t *testing.T) {
	yaml := `version: 1
scenarios:
  - name: hostile
    title: "T"
    story: "S"
    duration: 10s
    lock: {key: "lock:x", ttl: 5s, strategy: set-del}
    clients:
      - name: A
        start: 0s
        work: 1s
`
	f, err := scenario.Load("hostile.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	// The loader refuses control characters in titles and stories; a
	// scenario built in Go (the harness, a future format) need not pass
	// it, and the view must not rely on it.
	f.Scenarios[0].Title = "T " + hostile + " end"
	f.Scenarios[0].Story = "S " + hostile + "\n\nmore \x1b[31mred"
	if s := f.Scenarios[0]; !strings.Contains(s.Title, hostile) || !strings.Contains(s.Story, hostile) {
		t.Fatalf("the loader did not keep the control characters: the test proves nothing: %q", s.Title)
	}
	for _, sz := range [][2]int{{100, 30}, {140, 36}, {MinWidth, MinHeight}} {
		m := newModel(t, f, Config{}, sz[0], sz[1])
		v := m.View()
		noControl(t, "picker", v)
		if sz[0] >= 110 && !strings.Contains(v, `\x1b]0;pwned\a`) {
			t.Fatalf("the picker's story does not show the text escaped:\n%s", v)
		}
		press(m, "enter") // the run view at event 0 shows the title and story
		noControl(t, "run view", m.View())
		for _, k := range []string{"v", "n", "g", "?", "esc", "c", "?", "esc"} {
			press(m, k)
			noControl(t, "after "+k, m.View())
		}
	}
}

// Names, keys, tokens and log messages are escaped where the run view
// draws them; the loader may refuse such names, the view does not rely on it.
func TestNamesEscaped(t *testing.T) {
	st := NewStyles(DefaultTheme)
	snap := player.Snapshot{
		Clients: []player.ClientSnap{{Name: "A" + hostile, State: "holding", Believes: true, Token: hostile, OwnsKey: true}},
		Nodes: []player.NodeSnap{{Name: "r" + hostile, Up: true, ClockRate: 1,
			Keys: []player.KeySnap{{Key: "k" + hostile, Lock: true, Owner: hostile, TTL: 1}, {Key: hostile, Value: hostile}}}},
		Sentinels:     []string{hostile},
		SentinelsCut:  []bool{false},
		SentinelsDown: []player.MasterDown{{Master: hostile, Down: 1}},
	}
	cl, _ := clientLines(st, snap, 100, -1, false) // unselected: a selected line is stripped of styling
	nl, _ := nodeLines(st, snap, 100, -1, false, timeNS(5e9))
	e := sim.Event{Proc: hostile, Kind: hostile, Msg: hostile}
	cols := logCols{time: 7, proc: procWidth(snap)}
	lines := append(append(cl, nl...), eventLine(st, e, "", cols, false), sentinelLine(st, snap))
	lines = append(lines, wrapEvent(st, e, "", cols, 60)...)
	lines = append(lines, resourceLine(st, player.ResourceSnap{Writes: []model.Write{{Client: hostile}}}))
	lines = append(lines, resourceLines(st, player.ResourceSnap{Writes: []model.Write{{Client: hostile}}}, 40)...)
	noControl(t, "panels", strings.Join(lines, "\n"))
}
