package panels

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/views/text"
)

// The metrics bar shows the metrics marked BarNonZero only while they are
// not 0 (and the step that undid one, with its ▼); when narrow they give
// way from the end, whole, before the bar would be cut.
func TestMetricsBarShowsTheNewMetricsWhenNonZero(t *testing.T) {
	st := text.NewStyles(text.DefaultTheme)
	var zero, m model.Metrics
	zero.Safe, m.Safe = true, true
	if b := MetricsBar(st, zero, zero, 200); strings.Contains(b, "unheld") || strings.Contains(b, "refused") ||
		strings.Contains(b, "dup") || strings.Contains(b, "deadlock") || strings.Contains(b, "holds/s") || strings.Contains(b, "throughput") {
		t.Fatalf("zero metrics in the bar: %q", b)
	}
	m.UnheldReleases, m.RefusedWrites, m.DuplicateWrites, m.Deadlocks, m.Throughput = 1, 2, 3, 4, 2500
	wide := MetricsBar(st, m, m, 300)
	for _, s := range []string{"unheld_releases 1", "refused_writes 2", "duplicate_writes 3", "deadlocks 4", "throughput 2.5"} {
		if !strings.Contains(wide, s) {
			t.Errorf("wide bar lacks %q: %q", s, wide)
		}
	}
	mid := MetricsBar(st, m, m, 160)
	for _, s := range []string{"unheld 1", "refused 2", "dup 3", "deadlock 4", "holds/s 2.5"} {
		if !strings.Contains(mid, s) {
			t.Errorf("short bar lacks %q: %q", s, mid)
		}
	}
	narrow := MetricsBar(st, m, m, 100)
	if w := ansi.StringWidth(narrow); w > 100 || strings.Contains(narrow, "…") || !strings.Contains(narrow, "failed 0") {
		t.Errorf("narrow bar (%d wide) is cut or lost an old metric: %q", w, narrow)
	}
	if back := MetricsBar(st, zero, m, 300); !strings.Contains(back, "deadlocks 0▼") {
		t.Errorf("a step back to 0 should show deadlocks 0▼: %q", back)
	}
}
