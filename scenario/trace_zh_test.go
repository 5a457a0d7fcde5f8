package scenario_test

import (
	"fmt"
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

var zhPlaceholderRE = regexp.MustCompile(`\{([a-z0-9_]+)(:[a-z]+)?\}`)

// Every event of every bundled scenario whose id has a template renders
// in zh (issue 16), and every argument its zh template names is among the
// event's: no line would show a leftover {placeholder}.
func TestEveryTraceEventRendersInZH(t *testing.T) {
	bad := map[string]string{}
	n := 0
	bundledEvents(t, func(name string, e sim.Event) {
		en, _ := tracemsg.Template("en", e.ID)
		if e.ID == "" || en == "" || bad[e.ID] != "" {
			return
		}
		zh, _ := tracemsg.Template("zh", e.ID)
		if _, ok := tracemsg.RenderIn("zh", e.ID, e.Args); !ok || zh == "" {
			bad[e.ID] = name + ": no zh rendering"
			return
		}
		n++
		for _, m := range zhPlaceholderRE.FindAllStringSubmatch(zh, -1) {
			if !hasArg(e.Args, m[1]) {
				bad[e.ID] = fmt.Sprintf("%s: the zh template names {%s}, the event's args %v have none", name, m[1], e.Args)
			}
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
		t.Fatal("no event rendered in zh: the walk is broken")
	}
}

func hasArg(args []sim.Arg, key string) bool {
	for _, a := range args {
		if a.Key == key {
			return true
		}
	}
	return false
}

// The first violation (and stuck reason) of every bundled scenario that
// has one is the same English through its Phrase (FirstViolationIn "en")
// as the report's, and renders in zh as another text with no placeholder
// left over.
func TestFirstViolationInZH(t *testing.T) {
	n, stuck := 0, 0
	for _, s := range scenariotest.File(t).Scenarios {
		r, err := runner.New(s, scenario.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		r.Run()
		en, zh := r.World().Chk.FirstViolation(), r.World().Chk.FirstViolationIn("zh")
		stuckEN, stuckZH := r.World().Chk.StuckReason(), r.World().Chk.StuckReasonIn("zh")
		r.Close()
		if stuckEN != "" {
			stuck++
			if stuckZH == stuckEN || zhPlaceholderRE.MatchString(stuckZH) || !strings.Contains(stuckZH, "卡死") {
				t.Errorf("%s: zh stuck reason %q (en %q)", s.Name, stuckZH, stuckEN)
			}
		}
		if en == "" {
			continue
		}
		n++
		if got := r.World().Chk.FirstViolationIn("en"); got != en {
			t.Errorf("%s: FirstViolationIn(en)\n  %q\nFirstViolation\n  %q", s.Name, got, en)
		}
		if zh == en || zhPlaceholderRE.MatchString(zh) || !strings.Contains(zh, "以为") {
			t.Errorf("%s: zh first violation %q (en %q)", s.Name, zh, en)
		}
	}
	if n == 0 || stuck == 0 {
		t.Fatalf("%d bundled scenarios with a violation, %d stuck: the walk is broken", n, stuck)
	}
}
