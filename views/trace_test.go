package views

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/lockstep-sim/lockstep/model/tracelog"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/tracefile"
)

// traceModel records name's run (from the frozen bundled file) as a trace,
// opens the trace and shows it in the TUI at w×h.
func traceModel(t *testing.T, name string, w, h int) *Model {
	t.Helper()
	s, err := bundled(t).Find(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(s, scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	tw := tracelog.NewWriter(&buf, r.TraceHeader())
	r.RecordTrace(tw)
	r.Run()
	r.EndTrace(tw)
	r.Close()
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	pl, err := tracefile.OpenTrace(name+".jsonl", &buf, "")
	if err != nil {
		t.Fatal(err)
	}
	m := NewTrace(pl, Config{OutDir: t.TempDir()})
	t.Cleanup(m.Close)
	m.Update(teaSize(w, h))
	return m
}

// A recorded trace opens in the run view: stepped to the first violation
// it shows the panels (A paused and believing, B owning the key), the
// timeline and the log, rebuilt from the trace.
func TestGoldenTraceRun(t *testing.T) {
	m := traceModel(t, "gc-pause-wrong-delete", 100, 30)
	press(m, "g", "g")
	golden.RequireEqual(t, []byte(m.View()))
}

// Injecting, writing the run out and comparing need the simulation: a
// recorded trace refuses them and says why; stepping back and forth works.
func TestTraceRefusesInjection(t *testing.T) {
	m := traceModel(t, "gc-pause-wrong-delete", 100, 30)
	if v := flat(m.View()); !strings.Contains(v, "│ recorded trace") {
		t.Fatalf("no recorded tag in the header:\n%s", v)
	}
	press(m, "n", "n", "n")
	if got := m.Run().Player().Event(); got != 3 {
		t.Fatalf("three steps reach event %d, want 3", got)
	}
	for _, k := range []string{"p", "x", "w", "c"} {
		press(m, k)
		if m.Run().prompt != nil || len(m.Run().Player().Injected()) != 0 || m.Compare() != nil {
			t.Fatalf("%s: a recorded trace took a fault or opened a compare view", k)
		}
		if v := flat(m.View()); !strings.Contains(v, "not re-simulated: no faults") {
			t.Errorf("%s: the refusal does not say why:\n%s", k, v)
		}
	}
	press(m, "b")
	if got := m.Run().Player().Event(); got != 2 {
		t.Errorf("back reaches event %d, want 2", got)
	}
}

// Under the real program loop (teatest), a recorded trace plays, refuses a
// fault and quits with q; its last frame is blank and closing it is safe.
func TestTraceQuitsUnderTheProgram(t *testing.T) {
	m := traceModel(t, "gc-pause-wrong-delete", 100, 30)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	for _, k := range keys("n", "n", "g", "p", "space", "q") {
		tm.Send(k)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(quitTimeout)).(*Model)
	if v := fm.View(); v != "" {
		t.Fatalf("the last frame after quitting is not blank:\n%s", v)
	}
	if n := len(fm.Run().Player().Injected()); n != 0 {
		t.Errorf("%d faults injected into a recorded trace", n)
	}
	fm.Close()
	fm.Close()
}
