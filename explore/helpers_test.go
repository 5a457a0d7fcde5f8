package explore

import (
	"os"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
)

// testScenario is the named world of testdata/worlds.yaml.
func testScenario(tb testing.TB, name string) *scenario.Scenario {
	tb.Helper()
	data, err := os.ReadFile("testdata/worlds.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	f, err := scenario.Load("testdata/worlds.yaml", data)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := f.Find(name)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func parseKinds(tb testing.TB, list string) []faults.Kind {
	tb.Helper()
	ks, err := ParseKinds(list)
	if err != nil {
		tb.Fatal(err)
	}
	return ks
}
