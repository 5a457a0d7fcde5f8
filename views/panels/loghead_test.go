package panels

import (
	"fmt"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/sim"
	"github.com/lockstep-sim/lockstep/views/text"
)

// TestEventHeadPadsAsFmt pins the hand-built head to the fmt format it
// replaced, padding by runes: wide, escaped and over-long names included.
func TestEventHeadPadsAsFmt(t *testing.T) {
	for _, e := range []sim.Event{
		{At: 0, Proc: "A", Kind: "cmd"},
		{At: 9*time.Second + 999*time.Millisecond, Proc: "redis-1-r1", Kind: "VIOLATION"},
		{At: 123 * time.Second, Proc: "锁锁", Kind: "fault"},
		{At: 5 * time.Millisecond, Proc: "a\x1b[2Jb", Kind: "kind-longer-than-nine"},
		{At: -time.Second, Proc: "a-very-long-process-name", Kind: "✓"},
	} {
		for _, c := range []Cols{{7, 8}, {8, 10}, {1, 1}} {
			want := fmt.Sprintf("%s%*s %-*s %-9s ", "▶ ", c.Time, text.Secs(e.At), c.Proc, termtext.Escape(e.Proc), termtext.Escape(e.Kind))
			if got := eventHead(e, "▶ ", c); got != want {
				t.Errorf("eventHead(%+v, %+v) = %q, want %q", e, c, got, want)
			}
		}
	}
}
