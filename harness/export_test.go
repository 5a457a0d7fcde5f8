package harness

import "testing"

// RunChecked is runChecked for the tests: the report and, when the two
// runs' traces differ, why.
func RunChecked(t *testing.T, cfg Config, f Factory) (Report, string) { return runChecked(t, cfg, f) }
