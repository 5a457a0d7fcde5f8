package faults_test

import (
	"os"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// TestUnseenScenarios runs scenarios written from the format's definitions
// only (testdata/unseen.yaml), with nothing but the format's fault fields,
// and checks that each gives the outcome its expect block says the
// definitions imply.
func TestUnseenScenarios(t *testing.T) {
	data, err := os.ReadFile("testdata/unseen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Load("testdata/unseen.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range f.Scenarios {
		t.Run(s.Name, func(t *testing.T) {
			r, err := runner.New(s, scenario.Options{}, false)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			rep := r.Run()
			for _, e := range rep.Expectations {
				if !e.OK {
					t.Errorf("%s: want %s, got %s (first violation: %s)", e.Field, e.Want, e.Got, rep.FirstViolation)
				}
			}
		})
	}
}
