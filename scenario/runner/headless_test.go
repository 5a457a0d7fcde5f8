package runner

import (
	"reflect"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/sim"
)

// A headless runner is no sink of its trace (the world hands it the two
// kinds of line it reads, World.NoteTold), yet its report says the same
// skipped faults, from the same lines, as a runner with a sink, and a
// sink added later sees every line without the runner's noting them twice.
func TestHeadlessRunnerNotesWhatASinkWould(t *testing.T) {
	s := hangingScenario(func(s *scenario.Scenario) {
		s.Faults = []faults.Fault{{At: time.Second, Kind: faults.Pause, Target: "Z", For: time.Second},
			{At: 2 * time.Second, Kind: faults.Pause, Target: "Y", For: time.Second}}
	})
	run := func(sink bool, late bool) *Report {
		r, err := New(s, scenario.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		seen := 0
		if sink {
			r.OnEvent(func(sim.Event) { seen++ })
		}
		if late { // a sink that comes between the two skipped faults
			r.RunUntil(1500 * time.Millisecond)
			r.OnEvent(func(sim.Event) { seen++ })
		}
		rep := r.Run()
		if (sink || late) && seen == 0 {
			t.Fatalf("sink=%v late=%v: the sink saw nothing", sink, late)
		}
		return rep
	}
	headless, withSink, late := run(false, false), run(true, false), run(false, true)
	if len(withSink.Skipped) != 2 {
		t.Fatalf("with a sink: skipped %q, want both faults", withSink.Skipped)
	}
	for name, rep := range map[string]*Report{"headless": headless, "sink added during the run": late} {
		if !reflect.DeepEqual(rep.Skipped, withSink.Skipped) || !reflect.DeepEqual(rep.skipped, withSink.skipped) {
			t.Errorf("%s: skipped %q (%+v), with a sink %q (%+v)", name, rep.Skipped, rep.skipped, withSink.Skipped, withSink.skipped)
		}
	}
}
