package tracemsg

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// The watchdog's retried renewal says its failure with a piece: in
// English the error's own text, as the line always said it (timeout, or
// Redis's error reply), in zh the reply kept in Redis's words.
func TestRenewRetryFailurePhrases(t *testing.T) {
	for _, c := range []struct{ failure, err, en, zh string }{
		{"renew-failed-timeout", "timeout",
			"watchdog: renewal of A-1 failed (timeout); tries again in 10s (on_failure: retry)",
			"看门狗：A-1 续期失败（超时，没有回复）；10s 后再试（on_failure: retry）"},
		{"renew-failed-reply", "READONLY You can't write against a read only replica.",
			"watchdog: renewal of A-1 failed (READONLY You can't write against a read only replica.); tries again in 10s (on_failure: retry)",
			"看门狗：A-1 续期失败（错误回复 READONLY You can't write against a read only replica.）；10s 后再试（on_failure: retry）"},
	} {
		args := []sim.Arg{sim.S("token", "A-1"), sim.S("error", c.err), sim.S("failure", c.failure), sim.I("every_ns", int64(10*time.Second))}
		if en, _ := Render("renew-retry", args); en != c.en {
			t.Errorf("en %q\nwant %q", en, c.en)
		}
		if zh, ok := RenderIn("zh", "renew-retry", args); !ok || zh != c.zh {
			t.Errorf("zh %q, %v\nwant %q", zh, ok, c.zh)
		}
	}
	// A trace written before the piece existed has only error: shown in
	// its English msg, not with a placeholder.
	if zh, ok := RenderIn("zh", "renew-retry", []sim.Arg{sim.S("token", "A-1"), sim.S("error", "timeout"), sim.I("every_ns", 1)}); ok {
		t.Errorf("an old line renders in zh: %q", zh)
	}
}
