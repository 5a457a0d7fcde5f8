package scenario_test

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
	"github.com/lockstep-sim/lockstep/sim"
)

// bundledEvents runs every bundled scenario and calls fn with each of its
// trace events, text, id and arguments included.
func bundledEvents(t *testing.T, fn func(scenario string, e sim.Event)) {
	t.Helper()
	for _, s := range scenariotest.File(t).Scenarios {
		r, err := runner.New(s, scenario.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		r.OnEvent(func(e sim.Event) { fn(s.Name, e) })
		r.Run()
		r.Close()
	}
}

// Every event of every bundled scenario's trace has a message id, and
// every id is documented in docs/trace-format.md's tables.
func TestEveryTraceEventHasAnID(t *testing.T) {
	missing := map[string]string{}
	count := map[string]int{}
	ids := map[string]bool{}
	bundledEvents(t, func(name string, e sim.Event) {
		if e.ID == "" {
			k := e.Proc + " " + e.Kind
			if _, ok := missing[k]; !ok {
				missing[k] = name + ": " + e.Msg
			}
			count[k]++
			return
		}
		ids[e.ID] = true
	})
	var keys []string
	for k := range missing {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Errorf("no id: %s (%d): %s", k, count[k], missing[k])
	}
	doc, err := os.ReadFile("../docs/trace-format.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|").FindAllStringSubmatch(string(doc), -1) {
		documented[m[1]] = true
	}
	var undocumented []string
	for id := range ids {
		if !documented[id] {
			undocumented = append(undocumented, id)
		}
	}
	sort.Strings(undocumented)
	if len(undocumented) > 0 {
		t.Errorf("ids not in docs/trace-format.md: %s", strings.Join(undocumented, ", "))
	}
}

// The text of every event of every bundled scenario's trace is exactly
// what the catalogue renders from its id and arguments (issue 16: another
// language's catalogue can render it), for every id that has a template.
func TestEveryTraceEventRendersFromItsID(t *testing.T) {
	bad := map[string]string{}
	n := 0
	bundledEvents(t, func(name string, e sim.Event) {
		m, ok := tracemsg.Lookup(e.ID)
		if e.ID == "" || bad[e.ID] != "" {
			return
		}
		if !ok {
			bad[e.ID] = name + ": not in the catalogue (model/tracemsg): " + e.Msg
			return
		}
		if m.Template == "" {
			return
		}
		n++
		if got, _ := tracemsg.Render(e.ID, e.Args); got != e.Msg {
			bad[e.ID] = fmt.Sprintf("%s: args %v\n  rendered %q\n  the msg  %q", name, e.Args, got, e.Msg)
		}
	})
	var ids []string
	for id := range bad {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		t.Errorf("%s: %s", id, bad[id])
	}
	if n == 0 {
		t.Fatal("no event rendered: the walk is broken")
	}
}
