package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/harness"
)

// deadlined gives up each Lock after 2s (a library's own acquire timeout).
type deadlined struct {
	harness.Locker
	took *time.Duration
}

func (l deadlined) Lock(ctx context.Context) error {
	start := time.Now()
	// Cancelled by a timer rather than a deadline: go-redis copies a
	// context's deadline onto the socket, and a read deadline and a
	// context timer that fire at one instant wake two goroutines whose
	// order is the scheduler's (the harness then reports the run as
	// nondeterministic, rightly).
	ctx, cancel := context.WithCancel(ctx)
	defer time.AfterFunc(2*time.Second, cancel).Stop()
	defer cancel()
	err := l.Locker.Lock(ctx)
	*l.took = time.Since(start)
	return err
}

func (l deadlined) Close() error { return l.Locker.(interface{ Close() error }).Close() }

// A GC pause freezes the connections and the hold loop, not the library's
// timers: B's Lock, waiting from 1s and cancelled after 2s, is paused at
// 2s for 5s; go-redis's read timeout fires inside the pause, but the hold
// loop sees the failure only when the pause ends at 7s.
func TestPauseLetsLibraryTimersRun(t *testing.T) {
	var took time.Duration
	rep := harness.Run(t, harness.Config{File: testFile, Scenario: "pause-in-lock", Expect: "failed_acquires: 1"},
		func(c *harness.Client) harness.Locker {
			l := newSetDel(false)(c)
			if c.Name() == "B" {
				return deadlined{l, &took}
			}
			return l
		})
	// B's Lock began at 1s; its SET at 2s waits, frozen, for a reply that
	// the pause holds, while go-redis's read timeout and the cancel timer
	// run inside the pause; the hold loop sees the failure after 7s.
	if took < 5*time.Second {
		t.Errorf("B's Lock took %s; the pause should have held its SET's reply", took)
	}
	for _, line := range strings.Split(string(rep.TraceJSONL()), "\n") {
		var e struct {
			AtMS json.Number `json:"at_ms"`
			Proc string
			Kind string
		}
		if json.Unmarshal([]byte(line), &e) == nil && e.Proc == "B" && e.Kind == "gave-up" {
			if at, _ := e.AtMS.Float64(); at < 7000 {
				t.Errorf("B gave up at %sms, inside its pause (2s to 7s)", e.AtMS)
			}
			return
		}
	}
	t.Errorf("B never gave up")
}
