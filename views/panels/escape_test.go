package panels

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/sim"
	"github.com/lockstep-sim/lockstep/views/text"
)

// TestMain pins the colour profile, as views' does: lipgloss then emits no
// escape of its own, so any ESC in a panel is the scenario's text.
func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// hostile is what a scenario's text may hold: retitle the terminal, clear
// the screen, ring the bell (as in views' escape_test.go).
const hostile = "\x1b]0;pwned\x07\x1b[2J"

// noControl fails if v holds any control character but newline.
func noControl(t *testing.T, what, v string) {
	t.Helper()
	for i, r := range v {
		if r != '\n' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)) {
			t.Fatalf("%s: raw control %q at byte %d:\n%q", what, r, i, v)
		}
	}
}

// Names, keys, tokens and log messages are escaped where the run view
// draws them; the loader may refuse such names, the view does not rely on it.
func TestNamesEscaped(t *testing.T) {
	st := text.NewStyles(text.DefaultTheme)
	snap := player.Snapshot{
		Clients: []player.ClientSnap{{Name: "A" + hostile, State: "holding", Believes: true, Token: hostile, OwnsKey: true}},
		Nodes: []player.NodeSnap{{Name: "r" + hostile, Up: true, ClockRate: 1,
			Keys: []player.KeySnap{{Key: "k" + hostile, Lock: true, Owner: hostile, TTL: 1}, {Key: hostile, Value: hostile}}}},
		Sentinels:     []string{hostile},
		SentinelsCut:  []bool{false},
		SentinelsDown: []player.MasterDown{{Master: hostile, Down: 1}},
	}
	cl, _ := Clients(st, snap, 100, -1, false) // unselected: a selected line is stripped of styling
	nl, _ := Nodes(st, snap, 100, -1, false, timeNS(5e9))
	e := sim.Event{Proc: hostile, Kind: hostile, Msg: hostile}
	cols := Cols{Time: 7, Proc: procWidth(snap)}
	lines := append(append(cl, nl...), EventLine(st, e, "", cols, false), sentinelLine(st, snap))
	lines = append(lines, WrapEvent(st, e, "", cols, 60)...)
	lines = append(lines, ResourceLine(st, player.ResourceSnap{Writes: []model.Write{{Client: hostile}}}))
	lines = append(lines, Resource(st, player.ResourceSnap{Writes: []model.Write{{Client: hostile}}}, 40)...)
	noControl(t, "panels", strings.Join(lines, "\n"))
}
