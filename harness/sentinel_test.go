package harness_test

import (
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/harness"
)

// Sentinels act as for every strategy: the majority side promotes
// redis-1-r1 at 3s, so a dial after that reaches it. A, cut off with the
// old master, cannot reach the new one (its dial is silence) until the
// partition heals; B, on the majority side, gets the lock there first.
// No client has a connection to the old master, so there is no split
// brain: safe (compare the bundled recipe's verdict, which keeps A on
// redis-1).
func TestSentinelPromotionReachesDials(t *testing.T) {
	rep := harness.Run(t, harness.Config{Scenario: "sentinel-split-brain",
		Expect: "safe: true\nacquired: 2"}, newSetDel(false))
	tr := string(rep.TraceJSONL())
	for _, want := range []string{
		`"proc":"redis-1-r1","kind":"promoted"`,
		`"msg":"request A -> redis-1-r1 partitioned`,
		`"msg":"B connects to redis-1-r1`,
	} {
		if !strings.Contains(tr, want) {
			t.Errorf("the trace lacks %s", want)
		}
	}
}
