package views

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// Goldens of the features issue 13 added, from testdata/features.yaml, at
// the three sizes the layout is kept aligned at.

func featureGolden(t *testing.T, name string, w, h int, keys ...string) {
	t.Helper()
	m := newModel(t, features(t), Config{Open: name}, w, h)
	press(m, keys...)
	golden.RequireEqual(t, []byte(m.View()))
}

// 120×36: redis-1 lost its only good replica and refuses writes
// (⊘ NOREPLICAS, the count under it, refused in the bar).
func TestGoldenNoReplicas120x36(t *testing.T) {
	featureGolden(t, "min-replicas-cut-off-replica", 120, 36, append(repeat("g", 2), repeat("n", 4)...)...)
}

// 200×60: A and B each hold one of the two keys and wait for the other
// (both keys on redis-1 with their owners, deadlocks in the bar).
func TestGoldenDeadlock200x60(t *testing.T) {
	featureGolden(t, "multikey-deadlock", 200, 60, "g", "n")
}

// 80×24: clients on their own resources, a counter each on the narrow
// resource line; the bar's new metrics give way whole.
func TestGoldenNamedResources80x24(t *testing.T) {
	featureGolden(t, "granularity-key-per-resource", 80, 24, repeat("n", 30)...)
}
