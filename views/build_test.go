package views

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/lockstep-sim/lockstep/scenario"
)

// q while a long scenario is still being built quits at once, cleanly, and
// the build stops: its context is cancelled. The build is held at its start
// (buildGate), so it is certainly still running when q arrives.
func TestQuitWhileBuilding(t *testing.T) {
	for _, k := range []tea.KeyMsg{keyMsg("q"), {Type: tea.KeyCtrlC}} {
		gate := make(chan struct{})
		buildGate = gate
		m, err := New(bundled(t), Config{Open: "counter-30x200", OutDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		b := m.build
		if b == nil {
			t.Fatal("opening a scenario started no build")
		}
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))
		tm.Send(k)
		fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
		if v := fm.View(); v != "" {
			t.Errorf("%s: the last frame after quitting is %q, want it blank", k, v)
		}
		if !errors.Is(b.ctx.Err(), context.Canceled) {
			t.Errorf("%s: the abandoned build's context is not cancelled", k)
		}
		// The program may end before it starts the build at all; if the
		// build did run, it ended cancelled, not built.
		select {
		case <-b.done:
			if !errors.Is(b.err, context.Canceled) {
				t.Errorf("%s: the abandoned build ended with %v, want it cancelled", k, b.err)
			}
		default:
		}
		fm.Close()
		buildGate = nil
		close(gate)
	}
}

// Update builds nothing itself: opening a scenario or injecting a fault
// returns at once with the build still to run (no event of the new run has
// been played), and the old run stays on screen until the build is done.
func TestUpdateRunsNoBuild(t *testing.T) {
	m, err := New(bundled(t), Config{OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.Update(teaSize(120, 36))
	m.Update(keyMsg("enter")) // the picker's first scenario
	if m.build == nil || m.run != nil {
		t.Fatalf("enter in the picker: build %v, run %v; want a build and no run yet", m.build, m.run)
	}
	if n := m.build.events.Load(); n != 0 {
		t.Fatalf("Update played %d events of the build", n)
	}
	if v := m.View(); !strings.Contains(v, "building ") || !strings.Contains(v, "q quit") {
		t.Fatalf("the screen does not say what is being built:\n%s", v)
	}
	m.finishBuild()
	if m.run == nil || m.screen != screenRun {
		t.Fatal("the finished build opened no run view")
	}
	r := m.Run()
	old := r.Player()
	m.Update(keyMsg("n"))
	m.Update(keyMsg("x")) // crash the selected client
	if m.build == nil {
		t.Fatalf("x started no build (status %q)", r.status)
	}
	if n := m.build.events.Load(); n != 0 || len(old.Injected()) != 0 || !strings.Contains(m.View(), "injecting ") {
		t.Fatalf("inject ran in Update: %d events, %d injected", n, len(old.Injected()))
	}
	m.finishBuild()
	if got := r.Player().Injected(); len(got) != 1 {
		t.Fatalf("after the build, %d faults injected, want 1 (status %q)", len(got), r.status)
	}
}

// Keys typed while a build runs wait for it and then count; esc gives the
// build up.
func TestKeysWaitForTheBuild(t *testing.T) {
	m, err := New(bundled(t), Config{Open: "gc-pause-wrong-delete", OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.Update(teaSize(120, 36))
	for range 3 {
		m.Update(keyMsg("n"))
	}
	m.finishBuild()
	if got := m.Run().Player().StepAt(); got != 3 {
		t.Fatalf("n n n typed during the build: step %d, want 3", got)
	}
	press(m, "esc") // to the picker
	m.Update(keyMsg("enter"))
	m.Update(keyMsg("esc"))
	if m.build != nil || m.run != nil || !strings.Contains(m.err, "cancelled") {
		t.Fatalf("esc during a build: build %v, run %v, message %q", m.build, m.run, m.err)
	}
}

// A run that spends its event budget says so plainly, instead of hanging or
// looking finished.
func TestBudgetExhaustedIsShown(t *testing.T) {
	m, err := New(bundled(t), Config{Open: "counter-30x200", OutDir: t.TempDir(), EventBudget: 5000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.finishBuild()
	m.Update(teaSize(140, 36))
	r := m.Run()
	if r == nil || !r.Player().Final().BudgetExhausted {
		t.Fatal("counter-30x200 with a budget of 5000 kernel events did not exhaust it")
	}
	if v := m.View(); !strings.Contains(v, "event budget exhausted at t=") || !strings.Contains(v, "after 5000 kernel events") {
		t.Fatalf("the view does not say the budget ran out:\n%s", v)
	}
}

// The TUI keeps every event of a run, so its runs are bounded by its own,
// smaller budget unless the config raises it.
func TestTUIBudget(t *testing.T) {
	m := &Model{cfg: Config{}}
	if got := m.runOptions().EventBudget; got != DefaultEventBudget {
		t.Fatalf("default TUI budget %d, want %d", got, DefaultEventBudget)
	}
	if DefaultEventBudget >= scenario.DefaultEventBudget {
		t.Fatalf("the TUI's budget %d is not below the headless %d", DefaultEventBudget, scenario.DefaultEventBudget)
	}
	m.cfg.EventBudget = 5
	if got := m.runOptions().EventBudget; got != 5 {
		t.Fatalf("configured budget %d, want 5", got)
	}
}
