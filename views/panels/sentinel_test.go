package panels

import (
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/views/text"
)

// The Nodes panel ends with the sentinels: a mark each, and the masters
// some of them hold down, against the majority a failover needs.
func TestSentinelLine(t *testing.T) {
	s := player.Snapshot{Sentinels: []string{"sentinel-1", "sentinel-2", "sentinel-3"},
		SentinelsCut:   []bool{true, false, false},
		SentinelsDown:  []player.MasterDown{{Master: "redis-1", Down: 1}, {Master: "redis-2", Down: 0}},
		SentinelQuorum: 2}
	got := ansi.Strip(sentinelLine(text.NewStyles(text.DefaultTheme), s))
	if want := "sentinels ⇹●● · redis-1 down for 1/3 (failover at 2)"; got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
