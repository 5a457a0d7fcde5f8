package model

import (
	"testing"

	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// Every reason sim drops a message for has its piece, whose English is the
// reason itself: the lost lines' text (and so the trace hash) is what it
// was when they printed the reason, and zh says it in zh.
func TestEveryDropReasonHasItsPiece(t *testing.T) {
	for _, why := range []string{sim.DropLost, sim.DropPartitioned, sim.DropCutInFlight} {
		p := dropPiece(why)
		if en, ok := tracemsg.Render(p, nil); !ok || en != why {
			t.Errorf("%q: piece %q renders %q, %v", why, p, en, ok)
		}
		if zh, ok := tracemsg.RenderIn("zh", p, nil); !ok || zh == why {
			t.Errorf("%q: piece %q in zh is %q, %v", why, p, zh, ok)
		}
	}
}
