package scenario_test

import (
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// newRunnerT is runner.New for tests, keeping the events.
func newRunnerT(t *testing.T, s *scenario.Scenario, o scenario.Options) *runner.Runner {
	t.Helper()
	r, err := runner.New(s, o, true)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
