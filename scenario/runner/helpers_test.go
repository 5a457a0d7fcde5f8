package runner

import (
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
)

// bundledPath is the bundled scenario file, from this package's directory.
const bundledPath = "../../scenarios.yaml"

// loadBundled loads the bundled scenario file.
func loadBundled(tb testing.TB) *scenario.File {
	tb.Helper()
	f, err := scenario.LoadFile(bundledPath)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// loadOne is scenario name of the file at path.
func loadOne(tb testing.TB, path, name string) *scenario.Scenario {
	tb.Helper()
	f, err := scenario.LoadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := f.Find(name)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// bundledScenario is the bundled scenario name.
func bundledScenario(tb testing.TB, name string) *scenario.Scenario {
	tb.Helper()
	return loadOne(tb, bundledPath, name)
}
