package views

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
)

// n moves one step and the header counts steps, so they agree even where
// one step writes several trace lines (sentinel-split-brain has such
// steps); the help says what a step is.
func TestStepsAgreeWithTheHeader(t *testing.T) {
	f, err := scenario.LoadFile("../scenarios.yaml") // the frozen copy predates the sentinels
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(f, Config{Open: "sentinel-split-brain", OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.finishBuild()
	m.Update(teaSize(140, 36))
	ss := m.Run().Player()
	multi := 0
	for k := 1; k <= ss.Steps(); k++ {
		before := ss.Event()
		press(m, "n")
		if got := ss.StepAt(); got != k {
			t.Fatalf("n number %d: step %d", k, got)
		}
		if ss.Event()-before > 1 {
			multi++
		}
		if h := m.Run().header(140); !strings.Contains(h, fmt.Sprintf("step %d/%d", k, ss.Steps())) {
			t.Fatalf("after %d presses of n the header says %q", k, h)
		}
	}
	if multi == 0 {
		t.Fatal("no step of sentinel-split-brain writes several lines: the test proves nothing")
	}
	press(m, "?")
	if v := m.View(); !strings.Contains(v, "A step (n, b, the header's count)") {
		t.Fatalf("the help does not say what a step is:\n%s", v)
	}
}

// home and end jump to the ends of the run; : goes to a true time or a
// step, and a bad answer keeps the prompt open with the text and a reason.
func TestHomeEndAndGoto(t *testing.T) {
	m := openModel(t, "fair-fifo", 120, 36)
	r := m.Run()
	ss := r.Player()
	press(m, "end")
	if !ss.AtEnd() {
		t.Fatalf("end: step %d of %d", ss.StepAt(), ss.Steps())
	}
	press(m, "home")
	if ss.StepAt() != 0 || ss.Now() != 0 {
		t.Fatalf("home: step %d at %v", ss.StepAt(), ss.Now())
	}
	press(m, ":", "#", "4", "0", "enter")
	if ss.StepAt() != 40 || r.jump != nil {
		t.Fatalf(":#40: step %d, prompt open %v", ss.StepAt(), r.jump != nil)
	}
	press(m, ":", "1", "2", ".", "5", "s", "enter")
	if ss.Now() != 12500*time.Millisecond {
		t.Fatalf(":12.5s: at %v", ss.Now())
	}
	if i := ss.StepAt(); ss.StepTime(i) > ss.Now() || (i < ss.Steps() && ss.StepTime(i+1) <= ss.Now()) {
		t.Fatalf(":12.5s: step %d at %v is not the last step at or before the cursor", i, ss.StepTime(i))
	}
	for _, bad := range []string{"abc", "#99999", "-1s", "1h"} {
		keys := []string{":"}
		for _, c := range bad {
			keys = append(keys, string(c))
		}
		press(m, append(keys, "enter")...)
		if r.jump == nil || r.jump.Value() != bad || r.jump.Err() == "" {
			t.Fatalf(":%s: the prompt should stay open with the text and a reason", bad)
		}
		if f := r.footer(120); !strings.Contains(f, "✖") {
			t.Fatalf(":%s: footer %q shows no error", bad, f)
		}
		press(m, "q") // text for the prompt, not a key for the view
		if m.quitting || r.jump == nil {
			t.Fatalf(":%sq: quit %v, prompt open %v", bad, m.quitting, r.jump != nil)
		}
		press(m, "esc")
		if r.jump != nil {
			t.Fatal("esc leaves the : prompt open")
		}
	}
}

// b held down at the end of the largest bundled scenario: every press
// re-executes at most K + 1 steps (counted, not timed), and the cursor
// walks back one step each time.
func TestHoldBackAtTheEndOfALongRun(t *testing.T) {
	m := openModel(t, "counter-30x200", 120, 36)
	ss := m.Run().Player()
	press(m, "end")
	k := int64(ss.Spacing())
	for i := range 2 * player.SeekWindow {
		ss.Settle()
		before, at := ss.SeekStats().Steps, ss.StepAt()
		press(m, "b")
		if n := ss.SeekStats().Steps - before; n > k+1 {
			t.Fatalf("b number %d re-executed %d steps, K+1 = %d", i+1, n, k+1)
		}
		if ss.StepAt() != at-1 {
			t.Fatalf("b at step %d went to %d", at, ss.StepAt())
		}
		if snap := m.Run().snap; snap.Event != ss.Event() || snap.Now != ss.Now() {
			t.Fatalf("step %d: the snapshot is at event %d, %v; the oracle says event %d, %v", ss.StepAt(), snap.Event, snap.Now, ss.Event(), ss.Now())
		}
	}
}
