package views

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/sim"
	"github.com/lockstep-sim/lockstep/views/panels"
	"github.com/lockstep-sim/lockstep/views/text"
)

// newModel is the TUI for f and cfg at w×h, closed when the test ends; like
// openModel, for any file and config.
func newModel(t *testing.T, f *scenario.File, cfg Config, w, h int) *Model {
	t.Helper()
	cfg.OutDir = t.TempDir()
	m, err := New(f, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.Update(teaSize(w, h))
	m.finishBuild() // Config.Open is built off the UI goroutine; here, at once
	return m
}

// flat is a view's text with the box borders and runs of spaces removed,
// so that a message wrapped over lines reads as one.
func flat(v string) string {
	var b strings.Builder
	for _, l := range strings.Split(ansi.Strip(v), "\n") {
		b.WriteString(strings.Trim(l, "│┃ "))
		b.WriteString(" ")
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// The first violation reads in full at the usual sizes, pinned in the log;
// at the minimum size, where the log has one line, the log says so and v
// shows it in full.
func TestFirstViolationInFull(t *testing.T) {
	for _, name := range []string{"gc-pause-wrong-delete", "gc-pause-lua-release", "watchdog-pause-past-ttl"} {
		for _, sz := range [][2]int{{80, 24}, {100, 30}, {120, 36}, {MinWidth, MinHeight}} {
			m := openModel(t, name, sz[0], sz[1])
			for m.Run().snap.FirstViolation == "" && !m.Run().Player().AtEnd() {
				press(m, "n")
			}
			fv := squash(m.Run().snap.FirstViolation)
			if fv == "" {
				t.Fatalf("%s has no violation", name)
			}
			v := m.View()
			checkFits(t, name, v, sz[0], sz[1])
			if strings.Contains(flat(v), "first violation: "+fv) {
				continue
			}
			if sz[1] > MinHeight {
				t.Errorf("%s at %dx%d: the first violation is cut:\n%s", name, sz[0], sz[1], v)
				continue
			}
			if !strings.Contains(v, "v: the first violation in full") {
				t.Errorf("%s at %dx%d: the violation does not fit and nothing says how to read it:\n%s", name, sz[0], sz[1], v)
			}
			press(m, "v")
			if d := m.View(); !strings.Contains(flat(d), fv) {
				t.Errorf("%s at %dx%d: v does not show the violation in full:\n%s", name, sz[0], sz[1], d)
			}
			press(m, "n") // any key closes the page, and does nothing else
			if m.Run().detail || strings.Contains(m.View(), "Detail") {
				t.Errorf("a key did not close the detail page")
			}
		}
	}
}

// The event at the cursor is never cut: a long command reply wraps.
func TestCursorEventInFull(t *testing.T) {
	m := openModel(t, "gc-pause-lua-release", 120, 36)
	long := 0
	for !m.Run().Player().AtEnd() {
		press(m, "n")
		ss := m.Run().Player()
		e := ss.Events()[ss.Event()-1]
		if len(e.Msg) > 80 {
			long++
		}
		if !strings.Contains(flat(m.View()), squash(e.Msg)) {
			t.Fatalf("event %d is cut at the cursor: %q\n%s", ss.Event(), e.Msg, m.View())
		}
	}
	if long == 0 {
		t.Fatal("no event long enough to wrap: the test proves nothing")
	}
}

// At the minimum size the timeline keeps a lane per client.
func TestMinimumSizeKeepsClientLanes(t *testing.T) {
	for _, name := range []string{"gc-pause-wrong-delete", "gc-pause-lua-release", "watchdog-long-job"} {
		m := openModel(t, name, MinWidth, MinHeight)
		press(m, "g", "g")
		v := ansi.Strip(m.View())
		tl := v[strings.Index(v, "Timeline"):]
		tl = tl[:strings.Index(tl, "└")]
		for _, c := range m.Run().snap.Clients {
			if !regexp.MustCompile(`(?m)^│` + regexp.QuoteMeta(c.Name) + ` `).MatchString(tl) {
				t.Errorf("%s at %dx%d: no timeline lane for %s:\n%s", name, MinWidth, MinHeight, c.Name, v)
			}
		}
		checkFits(t, name, m.View(), MinWidth, MinHeight)
	}
}

// A refused answer keeps the prompt open with its text and says why in
// full next to it; what is typed next goes on into the prompt, never to the
// run view as keys.
func TestPromptErrorsInline(t *testing.T) {
	for _, sz := range [][2]int{{MinWidth, MinHeight}, {80, 24}, {120, 36}} {
		m := openModel(t, "gc-pause-wrong-delete", sz[0], sz[1])
		press(m, "n", "j", "a", "b", "c", "enter")
		p := m.Run().prompt
		if p == nil || p.input.Value() != "abc" {
			t.Fatalf("%dx%d: j abc ⏎ closed the prompt or lost its text: %+v", sz[0], sz[1], p)
		}
		if want := `"abc" is not a duration`; !strings.Contains(flat(m.View()), want) {
			t.Fatalf("%dx%d: no inline error %q:\n%s", sz[0], sz[1], want, m.View())
		}
		checkFits(t, "prompt error", m.View(), sz[0], sz[1])
		press(m, "c") // a correction being typed: not compare
		if m.screen != screenRun || m.Compare() != nil || m.Run().prompt == nil || m.Run().prompt.input.Value() != "abcc" {
			t.Fatalf("%dx%d: a key after the error leaked out of the prompt (screen %v)", sz[0], sz[1], m.screen)
		}
		if m.Run().prompt.err != "" {
			t.Fatal("editing the answer should clear the error")
		}
		press(m, "esc")

		// A partition the scenario check refuses: the whole reason shows.
		press(m, "P", "A", " ", "|", " ", "n", "o", "p", "e", "enter")
		p = m.Run().prompt
		if p == nil || p.input.Value() != "A | nope" || !strings.Contains(p.err, "unknown process") {
			t.Fatalf("%dx%d: a refused partition closed the prompt: %+v", sz[0], sz[1], p)
		}
		if v := flat(m.View()); !strings.Contains(v, squash(p.err)) {
			t.Fatalf("%dx%d: the reason is cut: %q\n%s", sz[0], sz[1], p.err, m.View())
		}
		checkFits(t, "partition error", m.View(), sz[0], sz[1])
		press(m, "c", "q", "?")
		if m.screen != screenRun || m.Compare() != nil || m.quitting || m.showHelp || m.Run().prompt == nil {
			t.Fatalf("%dx%d: keys after a refused partition leaked to the run view", sz[0], sz[1])
		}
		if len(m.Run().Player().Injected()) != 0 {
			t.Fatalf("a refused fault was injected: %v", m.Run().Player().Injected())
		}
	}
}

// esc in the compare view goes back to the run view it was opened from,
// with its injected faults, at the compare view's cursor.
func TestCompareEscBackToRun(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 140, 40)
	stepTo(t, m, 3)
	press(m, "x") // crash A: no prompt
	if len(m.Run().Player().Injected()) != 1 {
		t.Fatalf("crash not injected: %q", m.Run().status)
	}
	press(m, "c")
	if m.Compare() == nil {
		t.Fatal("c did not open the compare view")
	}
	press(m, "n", "n", "n")
	at := m.Compare().Now()
	press(m, "esc")
	if m.screen != screenRun || m.Run() == nil || m.Compare() != nil {
		t.Fatalf("esc from compare: screen %v", m.screen)
	}
	ss := m.Run().Player()
	if len(ss.Injected()) != 1 || ss.Injected()[0].Kind != faults.Crash {
		t.Fatalf("the injected faults were lost: %v", ss.Injected())
	}
	if ss.Now() != at {
		t.Fatalf("back in the run view at %v, the compare cursor was at %v", ss.Now(), at)
	}
	press(m, "n") // the run view works on
	if ss.Now() <= at {
		t.Fatal("the run view does not step after coming back")
	}
	// Opened at once (no run view under it), esc goes to the picker.
	d := newModel(t, bundled(t), Config{Open: "gc-pause-wrong-delete", Compare: [2]string{"set-del", "lua-release"}}, 140, 40)
	press(d, "esc")
	if d.screen != screenPicker {
		t.Fatalf("esc from a compare opened at once: screen %v", d.screen)
	}
}

// g in the compare view goes to the next fault or violation on either side.
func TestCompareNextMark(t *testing.T) {
	m := newModel(t, bundled(t), Config{Open: "gc-pause-wrong-delete", Compare: [2]string{"set-del", "lua-release"}}, 140, 40)
	c := m.Compare()
	var want []time.Duration // every mark of either side, in time order
	for _, s := range c.sides {
		for _, e := range s.Events() {
			if player.IsMark(e) {
				want = append(want, e.At)
			}
		}
	}
	var got []time.Duration
	for i := 0; i < 100; i++ {
		before := c.Now()
		press(m, "g")
		if c.Now() == before {
			break
		}
		got = append(got, c.Now())
	}
	if len(got) < 3 {
		t.Fatalf("g visited %v", got)
	}
	for _, at := range got {
		found := false
		for _, w := range want {
			found = found || w == at
		}
		if !found {
			t.Fatalf("g landed at %v, which is no side's fault or violation (%v)", at, want)
		}
	}
	if got[0] != time.Second {
		t.Fatalf("first g at %v, want the GC pause at 1s", got[0])
	}
	if !strings.Contains(c.status, "either side") {
		t.Fatalf("after the last mark: status %q", c.status)
	}
}

// ? in the compare view lists the keys that work there, and only those.
func TestCompareHelpListsItsKeys(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 140, 40)
	press(m, "c", "?")
	v := m.View()
	for _, want := range []string{"play/pause", "next step", "step back", "next fault/violation", "speed", "back to the run", "quit"} {
		if !strings.Contains(v, want) {
			t.Errorf("compare help lacks %q", want)
		}
	}
	for _, not := range []string{"inject", "write scenario", "Mermaid", "focus panel", "zoom", "compare strategies"} {
		if strings.Contains(v, not) {
			t.Errorf("compare help lists %q, which does not work there", not)
		}
	}
	// Every key it lists does something in the compare view.
	press(m, "esc") // closes help
	c := m.Compare()
	press(m, "g")
	if c.Now() == 0 {
		t.Fatal("g listed but did nothing")
	}
}

// One enter after typing a filter opens its first match.
func TestPickerFilterOneEnter(t *testing.T) {
	m := newModel(t, bundled(t), Config{}, 100, 30)
	press(m, "/", "l", "u", "a", "-", "r", "e", "l", "enter")
	if m.screen != screenRun || m.Run().Player().Scenario().Name != "gc-pause-lua-release" {
		t.Fatalf("/lua-rel ⏎: screen %v", m.screen)
	}
	press(m, "esc", "/", "z", "z", "z", "enter") // the filter goes on from lua-rel
	if m.screen != screenPicker || !strings.Contains(m.View(), `zzz" matches no scenario`) {
		t.Fatalf("a filter matching nothing: screen %v\n%s", m.screen, m.View())
	}
}

// At 110–125 columns no … dangles off the blank lines of the picker's list.
func TestPickerNoStrayEllipsis(t *testing.T) {
	for w := 108; w <= 130; w++ {
		m := newModel(t, bundled(t), Config{}, w, 36)
		for i, l := range strings.Split(ansi.Strip(m.View()), "\n") {
			left := l
			if j := strings.Index(l, "│"); j >= 0 && w >= 110 {
				left = l[:j]
			}
			if strings.TrimSpace(left) == "…" {
				t.Fatalf("%d columns, line %d: a stray …: %q", w, i, l)
			}
		}
	}
}

// The log's time column is as wide for 9 s as for 10 s: columns never
// shift as the cursor passes 10 s.
func TestLogColumnsFixed(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 50) // runs 50 s
	cols := m.Run().logCols()
	st := m.c.st
	a := panels.EventLine(st, sim.Event{At: 9 * time.Second, Proc: "A", Kind: "cmd"}, "  ", cols, false)
	b := panels.EventLine(st, sim.Event{At: 10 * time.Second, Proc: "A", Kind: "cmd"}, "  ", cols, false)
	if len(a) != len(b) {
		t.Fatalf("time column shifts at 10s:\n%q\n%q", a, b)
	}
	// Through the view: every past event's message starts in one column.
	for !m.Run().Player().AtEnd() {
		press(m, "n")
	}
	press(m, "tab", "tab", "tab", "tab") // the log, scrolled back over the 10 s mark
	for i := 0; i < 28; i++ {
		press(m, "up")
	}
	var starts []int
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		if mm := regexp.MustCompile(`^[│┃]  +\d+\.\d{3}s (\S+) +\S+ +`).FindStringIndex(l); mm != nil {
			starts = append(starts, strings.Index(l, "s ")) // end of the time
		}
	}
	if !strings.Contains(m.View(), " 9.") || !strings.Contains(m.View(), " 10.") {
		t.Fatalf("the log does not show both sides of 10 s:\n%s", m.View())
	}
	if len(starts) < 5 {
		t.Fatalf("only %d log lines found", len(starts))
	}
	for _, s := range starts {
		if s != starts[0] {
			t.Fatalf("log time columns end at %v", starts)
		}
	}
}

// The hang prompt mentions a watchdog only when the lock has one.
func TestHangPromptWatchdog(t *testing.T) {
	for name, want := range map[string]bool{"gc-pause-wrong-delete": false, "watchdog-long-job": true} {
		m := openModel(t, name, 100, 30)
		press(m, "n", "h")
		p := m.Run().prompt
		if p == nil {
			t.Fatalf("%s: h opened no prompt (%q)", name, m.Run().status)
		}
		if got := strings.Contains(p.label, "watchdog"); got != want {
			t.Errorf("%s: hang prompt %q, mentions a watchdog %v, want %v", name, p.label, got, want)
		}
	}
}

// wrap never makes a line wider than asked, loses no word, and breaks at
// spaces only (a hyphenated name stays whole when it fits).
func TestWrap(t *testing.T) {
	s := `✖ not injected: scenario "gc-pause-wrong-delete": unknown process "nope" in partition group 2 (known: A, B, C, redis-1) ` + strings.Repeat("x", 70) + "-y 锁锁锁"
	for w := 2; w < 80; w++ {
		lines := text.Wrap(s, w)
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Fatalf("w %d: %q is %d wide", w, l, ansi.StringWidth(l))
			}
		}
		if got := strings.Join(lines, ""); strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(s, " ", "") {
			t.Fatalf("w %d: words lost: %q", w, got)
		}
		if w >= 20 {
			for _, l := range lines {
				if strings.HasSuffix(l, "redis-") || strings.HasPrefix(l, "1)") {
					t.Fatalf("w %d: broke redis-1 at its hyphen: %q", w, lines)
				}
			}
		}
	}
}

// The compare view and its help fit every supported size too.
func TestCompareFitsTerminal(t *testing.T) {
	for _, sz := range [][2]int{{MinWidth, MinHeight}, {80, 24}, {120, 36}, {200, 60}} {
		m := openModel(t, "gc-pause-wrong-delete", sz[0], sz[1])
		press(m, "g", "g", "c")
		if m.Compare() == nil {
			t.Fatalf("%dx%d: c did not open the compare view: %q", sz[0], sz[1], m.Run().status)
		}
		checkFits(t, "compare", m.View(), sz[0], sz[1])
		press(m, "?")
		checkFits(t, "compare help", m.View(), sz[0], sz[1])
		for _, g := range m.c.keys.compareKeys("back to the run") {
			for _, b := range g {
				if !strings.Contains(m.View(), b.Help().Desc) {
					t.Errorf("%dx%d: compare help lacks %q", sz[0], sz[1], b.Help().Desc)
				}
			}
		}
	}
}
