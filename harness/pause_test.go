package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/harness"
)

// deadlined gives each Lock 2s (a library's own acquire timeout).
type deadlined struct {
	harness.Locker
	took *time.Duration
}

func (l deadlined) Lock(ctx context.Context) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	err := l.Locker.Lock(ctx)
	*l.took = time.Since(start)
	return err
}

func (l deadlined) Close() error { return l.Locker.(interface{ Close() error }).Close() }

// A GC pause freezes the connections and the hold loop, not the library's
// timers: B's Lock, waiting from 1s with a 2s deadline, is paused at 2s
// for 5s; its deadline passes at 3s inside the pause and Lock returns
// then, but the hold loop sees the failure only when the pause ends at 7s.
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
	if took < 2*time.Second || took > 2100*time.Millisecond {
		t.Errorf("B's Lock took %s; its 2s deadline should have ended it inside the pause", took)
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
