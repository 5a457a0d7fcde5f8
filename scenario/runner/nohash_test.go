package runner

import (
	"reflect"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// A run without the trace hash (Options.NoHash, what explore's searches and
// shrinks use) is the same run as a hashed one, for every bundled scenario:
// the same report in every field (verdict, metrics, first violation,
// expectations, trace and kernel event counts) but the hash, which it
// leaves empty.
func TestNoHashRunIsTheSameRun(t *testing.T) {
	for _, s := range scenariotest.File(t).Scenarios {
		hashed, bare := runWith(t, s, scenario.Options{}), runWith(t, s, scenario.Options{NoHash: true})
		if bare.TraceHash != "" || hashed.TraceHash == "" {
			t.Errorf("%s: trace hash %q without hashing, %q with", s.Name, bare.TraceHash, hashed.TraceHash)
		}
		bare.TraceHash = hashed.TraceHash
		if !reflect.DeepEqual(hashed, bare) {
			t.Errorf("%s: the run without a hash differs:\nhashed %+v\nbare   %+v", s.Name, hashed, bare)
		}
	}
}

func runWith(t *testing.T, s *scenario.Scenario, o scenario.Options) *Report {
	t.Helper()
	r, err := New(s, o, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return r.Run()
}
