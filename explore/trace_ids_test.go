package explore

import (
	"context"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/sim"
)

// Random fault schedules (every kind, several at once, so nested faults,
// skipped faults and an exhausted budget too) give only lines with a
// message id of the catalogue, whose text renders from its arguments: the
// emission points the bundled scenarios do not reach keep the contract.
func TestRandomFaultLinesHaveIDs(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range []struct{ name, strategy string }{
		{"single-failover", "lua-release"}, {"single-failover", "redlock"},
	} {
		w := NewWorld(testScenario(t, c.name), c.strategy)
		g := &Generator{W: w, Kinds: faults.Kinds, MaxFaults: 8, Seed: 3}
		for i := range 100 {
			opts := w.options(context.Background(), g.Schedule(i))
			if i%10 == 9 {
				opts.EventBudget = 300 // the budget line
			}
			r, err := runner.New(w.Base, opts, false)
			if err != nil {
				t.Fatal(err)
			}
			r.OnEvent(func(e sim.Event) {
				m, ok := tracemsg.Lookup(e.ID)
				switch {
				case !ok:
					t.Errorf("%s/%s run %d: %s %s line without a catalogued id (%q): %s", c.name, c.strategy, i, e.Proc, e.Kind, e.ID, e.Msg)
				case m.Template != "":
					if got, _ := tracemsg.Render(e.ID, e.Args); got != e.Msg {
						t.Errorf("%s: rendered %q, the msg %q", e.ID, got, e.Msg)
					}
				}
				seen[e.ID] = true
			})
			r.Run()
			r.Close()
			if t.Failed() {
				return
			}
		}
	}
	for _, id := range []string{"pause", "pause-nested", "slow-nested", "partition", "budget", "quorum", "node-crashed"} {
		if !seen[id] {
			t.Errorf("no %s line in the runs: the walk is too narrow", id)
		}
	}
}
