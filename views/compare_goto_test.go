package views

import (
	"strings"
	"testing"
	"time"
)

// openCompareModel opens the comparison of set-del and lua-release on
// gc-pause-wrong-delete at w×h.
func openCompareModel(t *testing.T, w, h int) *Model {
	t.Helper()
	m, err := New(bundled(t), Config{Open: "gc-pause-wrong-delete", Compare: [2]string{"set-del", "lua-release"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.finishBuild()
	m.Update(teaSize(w, h))
	return m
}

// home, end and : work in compare as in the run view: both sides move to
// one true time; a step (#N) is refused there, since each side counts its
// own steps; a bad answer keeps the prompt open, q is text in it, esc
// closes the prompt and not the compare view.
func TestCompareHomeEndAndGoto(t *testing.T) {
	m := openCompareModel(t, 120, 40)
	c := m.Compare()
	press(m, "end")
	if c.Now() != c.end() {
		t.Fatalf("end: cursor %v, runs end at %v", c.Now(), c.end())
	}
	for i, s := range c.sides {
		if !s.AtEnd() {
			t.Fatalf("end: side %d at step %d of %d", i, s.StepAt(), s.Steps())
		}
	}
	press(m, "home")
	if c.Now() != 0 || c.sides[0].StepAt() != 0 || c.sides[1].StepAt() != 0 {
		t.Fatalf("home: cursor %v, steps %d %d", c.Now(), c.sides[0].StepAt(), c.sides[1].StepAt())
	}
	press(m, ":", "3", "0", ".", "0", "5", "2", "s", "enter")
	if c.jump != nil || c.Now() != 30052*time.Millisecond {
		t.Fatalf(":30.052s: cursor %v, prompt open %v", c.Now(), c.jump != nil)
	}
	for i, s := range c.sides {
		if s.Now() != c.Now() {
			t.Fatalf("side %d at %v, shared cursor %v", i, s.Now(), c.Now())
		}
	}
	for _, bad := range []string{"#3", "abc", "1h"} {
		keys := []string{":"}
		for _, r := range bad {
			keys = append(keys, string(r))
		}
		press(m, append(keys, "enter")...)
		if c.jump == nil || c.jump.Value() != bad || c.jump.Err() == "" {
			t.Fatalf(":%s: the prompt should stay open with the text and a reason", bad)
		}
		if v := m.View(); !strings.Contains(v, "✖ ") {
			t.Fatalf(":%s: the view shows no reason:\n%s", bad, v)
		}
		press(m, "q")
		if m.quitting || c.jump == nil {
			t.Fatalf(":%sq: quit %v, prompt open %v", bad, m.quitting, c.jump != nil)
		}
		press(m, "esc")
		if c.jump != nil || m.screen != screenCompare {
			t.Fatalf(":%s esc: prompt open %v, still in compare %v", bad, c.jump != nil, m.screen == screenCompare)
		}
	}
	if c.Now() != 30052*time.Millisecond {
		t.Fatalf("refused answers moved the cursor to %v", c.Now())
	}
}

// The compare view's help page and footer name home, end and :.
func TestCompareHelpListsJumps(t *testing.T) {
	m := openCompareModel(t, 120, 40)
	press(m, "?")
	if v := m.View(); !strings.Contains(v, "start/end (: go to)") {
		t.Fatalf("compare help lacks home/end/:\n%s", v)
	}
}
