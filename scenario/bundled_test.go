package scenario

import "testing"

// bundledScenario is the bundled scenario name.
func bundledScenario(t *testing.T, name string) *Scenario {
	t.Helper()
	return loadOne(t, "../scenarios.yaml", name)
}
