package faults

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model/tracemsg"
)

// oldDescribe is how each kind described itself before its description
// became a piece of the catalogue: the trace's English, which must not
// change (it is hashed).
func oldDescribe(f Fault) string {
	switch f.Kind {
	case Pause, Hang, Isolate:
		return fmt.Sprintf("%s %s for %s", f.Kind, f.Target, f.For)
	case Crash:
		if f.RestartAfter > 0 {
			return fmt.Sprintf("%s %s, restart after %s", f.Kind, f.Target, f.RestartAfter)
		}
		return string(f.Kind) + " " + f.Target
	case ClockJump:
		sign := "+"
		if f.By < 0 {
			sign = ""
		}
		return fmt.Sprintf("%s %s %s%s", f.Kind, f.Target, sign, f.By)
	case ClockDrift:
		return fmt.Sprintf("%s %s %s %s", f.Kind, f.Target, FieldRate.Name, formatRate(f.Rate))
	case Partition:
		gs := make([]string, len(f.Groups))
		for i, g := range f.Groups {
			gs[i] = "[" + strings.Join(g, " ") + "]"
		}
		return fmt.Sprintf("%s %s for %s", f.Kind, strings.Join(gs, " | "), f.For)
	case Slow:
		return fmt.Sprintf("%s %s +%s %s %s for %s", f.Kind, f.Target, f.Latency, FieldLoss.Name, formatRate(f.Loss), f.For)
	case Failover, Evict:
		return string(f.Kind) + " " + f.Target
	}
	return string(f.Kind)
}

// Every kind's description renders, from its piece's arguments, exactly
// the English it always had; in zh it renders with no placeholder left,
// and differs where the English has words (for, restart after, rate, loss).
func TestDescriptionIsItsPiece(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	fs := randomSchedule(r, 400)
	g := &Gen{R: r, Names: NamesFor([]string{"A", "B"}, 2, 1, 0), TTL: 10 * time.Second}
	for _, k := range Kinds {
		for range 20 {
			fs = append(fs, Generate(g, k))
		}
	}
	fs = append(fs, Fault{Kind: ClockJump, Target: "A"}, Fault{Kind: "no-such-kind", Target: "A"})
	kinds := map[Kind]bool{}
	for _, f := range fs {
		kinds[f.Kind] = true
		if got, want := f.String(), oldDescribe(f); got != want {
			t.Errorf("%s: %q, want %q", f.Kind, got, want)
		}
		zh := f.StringIn("zh")
		if strings.Contains(zh, "{") {
			t.Errorf("%s: zh %q", f.Kind, zh)
		}
		if strings.Contains(oldDescribe(f), " for ") && !strings.Contains(zh, "持续") {
			t.Errorf("%s: zh %q keeps the English", f.Kind, zh)
		}
		if args := f.DescArgs(); args[0].Key != "fault" {
			t.Errorf("%s: the first argument is %q, not the piece", f.Kind, args[0].Key)
		} else if _, ok := tracemsg.Lookup(args[0].Str); !ok {
			t.Errorf("%s: piece %q not in the catalogue", f.Kind, args[0].Str)
		}
	}
	if len(kinds) < len(Kinds)+1 {
		t.Errorf("only %d kinds drawn", len(kinds))
	}
}
