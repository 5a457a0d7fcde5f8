package views

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// stepUntil steps m's run until its view at the current size contains
// every one of want, and returns that view; it fails when the run ends
// first.
func stepUntil(t *testing.T, m *Model, what string, want ...string) string {
	t.Helper()
	pl := m.Run().Player()
	for {
		v := ansi.Strip(m.View())
		ok := true
		for _, s := range want {
			ok = ok && strings.Contains(v, s)
		}
		if ok {
			return v
		}
		if pl.AtEnd() {
			t.Fatalf("%s: the run ended and the view never showed %q; at the end:\n%s", what, want, v)
		}
		press(m, "n")
	}
}

// The panels show what the client libraries and the mitigations of issue
// 13 do, at the three supported sizes, never wider than the terminal.
func TestPanelsShowTheNewFeatures(t *testing.T) {
	cases := []struct {
		scenario string
		wide     []string // at 120 and 200 columns
		narrow   []string // at 80 columns
	}{
		// redis-1 loses its only good replica and refuses A's writes.
		{"min-replicas-cut-off-replica", []string{"⊘ NOREPLICAS", "✗1 refused"}, []string{"⊘ NOREPLICAS", "✗1 refused"}},
		// B waits for a release message that the partition drops.
		{"redisson-notify-lost", []string{"B ⧗ pub/sub"}, []string{"B ⧗ pub/sub"}},
		// The driver sends A's SET again.
		{"driver-resend-setnx", []string{"↻1"}, []string{"↻1"}},
		// The resource refuses the second write of job 1.
		{"idempotency-job-key", []string{"writes ✓1 ✗0 dup 1"}, []string{"dup 1"}},
		// A and B each hold one of the two keys and wait for the other.
		{"multikey-deadlock", []string{"lock:order:1 [A]", "lock:order:2 [B]"}, []string{"lock:order:1 [A]", "lock:order:2 [B]"}},
		// Clients on different resources: a counter each, not their sum.
		{"granularity-key-per-resource", []string{"counters:"}, []string{"counters "}},
	}
	for _, c := range cases {
		for _, sz := range [][2]int{{120, 36}, {200, 60}, {80, 24}} {
			m := openFeature(t, c.scenario, sz[0], sz[1])
			want := c.wide
			if sz[0] < 100 {
				want = c.narrow
			}
			what := c.scenario + " at " + strconv.Itoa(sz[0]) + "x" + strconv.Itoa(sz[1])
			v := stepUntil(t, m, what, want...)
			checkFits(t, what, v, sz[0], sz[1])
		}
	}
}

// With several keys per hold, a client owns its grant only when it owns
// every key of it: at the deadlock A and B hold one key each, so neither
// owns the lock, and neither is flagged ⚠ for believing otherwise.
func TestMultiKeyOwnsEveryKey(t *testing.T) {
	m := openFeature(t, "multikey-deadlock", 120, 36)
	press(m, "g")
	for _, c := range m.Run().snap.Clients {
		if c.OwnsKey || c.Mismatch {
			t.Errorf("%s holds one of its two keys: owns %v, mismatch %v", c.Name, c.OwnsKey, c.Mismatch)
		}
	}
	if v := ansi.Strip(m.View()); strings.Contains(v, "⚠") {
		t.Errorf("the deadlock is flagged belief≠truth:\n%s", v)
	}
}
