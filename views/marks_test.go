package views

import (
	"testing"
)

// g stops at a deadlock, at a write refused as a duplicate, and where a
// master starts refusing writes (NOREPLICAS), as it does at faults and
// violations.
func TestNextMarkStopsAtTheNewMarks(t *testing.T) {
	for _, c := range []struct{ scenario, kind string }{
		{"multikey-deadlock", "deadlock"},
		{"idempotency-job-key", "duplicate"},
		{"min-replicas-cut-off-replica", "noreplicas"},
	} {
		m := openFeature(t, c.scenario, 120, 36)
		pl := m.Run().Player()
		found := false
		for i := 0; i < 64 && !found; i++ {
			before := pl.StepAt()
			press(m, "g")
			if pl.StepAt() == before {
				break
			}
			// The events of the step g stopped at: one back, one forward.
			end := pl.Event()
			press(m, "b")
			for _, e := range pl.Events()[pl.Event():end] {
				found = found || e.Kind == c.kind
			}
			press(m, "n")
		}
		if !found {
			t.Errorf("%s: g never stopped at a %s event", c.scenario, c.kind)
		}
	}
}
