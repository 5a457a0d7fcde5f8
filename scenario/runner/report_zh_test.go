package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
	"github.com/lockstep-sim/lockstep/sim"
)

// writeIn is rep's text report in l.
func writeIn(l i18n.Lang, write func(*strings.Builder)) string {
	defer i18n.Set(i18n.Current())
	i18n.Set(l)
	var b strings.Builder
	write(&b)
	return b.String()
}

// A fault skipped at run time is said in the report's language: in zh
// its trace line rendered from its id and args (tracemsg.RenderIn), in
// English the line's msg as before; --json's skipped_faults stays the
// English.
func TestSkippedFaultInZH(t *testing.T) {
	s := hangingScenario(func(s *scenario.Scenario) {
		s.Faults = []faults.Fault{{At: time.Second, Kind: faults.Pause, Target: "Z", For: time.Second}}
	})
	r, err := New(s, scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var line traceLine
	r.OnEvent(func(e sim.Event) {
		if e.Kind == "skipped" {
			line = lineOf(e)
		}
	})
	rep := r.Run()
	if len(rep.Skipped) != 1 || line.id == "" {
		t.Fatalf("skipped %q, line %+v: the fault was not skipped with an id", rep.Skipped, line)
	}
	zh, ok := tracemsg.RenderIn("zh", line.id, line.args)
	if !ok {
		t.Fatalf("%s has no zh rendering", line.id)
	}
	en := writeIn(i18n.EN, func(b *strings.Builder) { rep.WriteText(b) })
	if !strings.Contains(en, "  skipped: "+rep.Skipped[0]+"\n") {
		t.Errorf("the English report lacks the skipped line %q:\n%s", rep.Skipped[0], en)
	}
	got := writeIn(i18n.ZH, func(b *strings.Builder) { rep.WriteText(b) })
	if !strings.Contains(got, "  跳过："+zh+"\n") || strings.Contains(got, rep.Skipped[0]) {
		t.Errorf("the zh report does not say the skipped fault in zh (%q):\n%s", zh, got)
	}
	// A report whose Skipped a caller set itself is printed as it is.
	rep.Skipped = []string{"something else"}
	if got := writeIn(i18n.ZH, func(b *strings.Builder) { rep.WriteText(b) }); !strings.Contains(got, "  跳过：something else\n") {
		t.Errorf("a caller's Skipped is not printed as it is:\n%s", got)
	}
}

// The deadlock of multikey-deadlock (two clients, opposite key orders) is
// said in zh from its trace line's id and args, not in the judge's English
// note; the English report says the note, as --json's first_deadlock.
func TestDeadlockInZH(t *testing.T) {
	r, err := New(scenariotest.Scenario(t, "multikey-deadlock"), scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep := r.Run()
	if rep.FirstDeadlock == "" || rep.deadlock.id != "deadlock-pair" {
		t.Fatalf("first deadlock %q, its line %+v", rep.FirstDeadlock, rep.deadlock)
	}
	zh, ok := tracemsg.RenderIn("zh", rep.deadlock.id, rep.deadlock.args)
	if !ok {
		t.Fatal("deadlock-pair has no zh rendering")
	}
	got := writeIn(i18n.ZH, func(b *strings.Builder) { rep.WriteText(b) })
	if !strings.Contains(got, "  死锁："+zh+"\n") || strings.Contains(got, "waiting for each other") {
		t.Errorf("the zh report does not say the deadlock in zh (%q):\n%s", zh, got)
	}
	if en := writeIn(i18n.EN, func(b *strings.Builder) { rep.WriteText(b) }); !strings.Contains(en, "  deadlock: "+rep.FirstDeadlock+"\n") {
		t.Errorf("the English report lacks the judge's note:\n%s", en)
	}
}

// A run cut short says so around its verdict in the report's language;
// the verdict's own words (SAFE, STUCK, BUDGET EXHAUSTED) stay the
// format's, and Verdict is the English it always was.
func TestVerdictInZH(t *testing.T) {
	for _, c := range []struct {
		rep    Report
		en, zh string
	}{
		{Report{Metrics: model.Metrics{Safe: true}, BudgetExhausted: true}, "BUDGET EXHAUSTED (SAFE until then)", "BUDGET EXHAUSTED（截至此时 SAFE）"},
		{Report{Metrics: model.Metrics{Stuck: true}, Cancelled: true}, "CANCELLED (UNSAFE, STUCK until then)", "CANCELLED（截至此时 UNSAFE, STUCK）"},
		{Report{Metrics: model.Metrics{Safe: true}}, "SAFE", "SAFE"},
	} {
		if got := c.rep.Verdict(); got != c.en {
			t.Errorf("en %q, want %q", got, c.en)
		}
		if got := c.rep.VerdictIn(i18n.ZH); got != c.zh {
			t.Errorf("zh %q, want %q", got, c.zh)
		}
	}
}
