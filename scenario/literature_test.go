package scenario_test

import (
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// TestLiteratureTable runs every bundled scenario (the seeds' stories and
// the Redlock debate) and checks each published outcome in its expect:
// block. With -v it prints them as one table: scenario, strategy, expected,
// got, ok.
func TestLiteratureTable(t *testing.T) {
	f := scenariotest.File(t)
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tSTRATEGY\tEXPECTED\tGOT\tOK")
	failed := 0
	for _, s := range f.Scenarios {
		r, err := runner.New(s, scenario.Options{}, false)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		rep := r.Run()
		r.Close()
		if len(rep.Expectations) == 0 {
			fmt.Fprintf(tw, "%s\t%s\t(no expect: block)\t\t\n", s.Name, rep.Strategy)
		}
		for _, x := range rep.Expectations {
			ok := "ok"
			if !x.OK {
				ok = "FAIL"
				failed++
				t.Errorf("%s: %s: want %s, got %s", s.Name, x.Field, x.Want, x.Got)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s\t%s\n", s.Name, rep.Strategy, x.Field, x.Want, x.Got, ok)
		}
	}
	tw.Flush()
	t.Logf("%d scenarios, %d failed expectations\n%s", len(f.Scenarios), failed, b.String())
}
