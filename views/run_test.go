package views

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/views/play"
)

func TestStepForwardAndBack(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	press(m, "n", "n", "n", "n", "n")
	ss := m.Run().Player()
	if ss.Event() != 5 {
		t.Fatalf("after 5 steps: event %d, want 5", ss.Event())
	}
	press(m, "b")
	if ss.Event() != 4 {
		t.Fatalf("after back: event %d, want 4", ss.Event())
	}
	// Back is a deterministic replay: the world equals one stepped forward.
	fresh := openModel(t, "gc-pause-wrong-delete", 100, 30)
	press(fresh, "right", "right", "right", "right")
	if got, want := ss.Snapshot(), fresh.Run().Player().Snapshot(); !reflect.DeepEqual(got, want) {
		t.Fatalf("snapshot after back differs from stepping forward:\n got %+v\nwant %+v", got, want)
	}
	press(m, "left", "left", "left", "left", "left")
	if ss.Event() != 0 || !strings.Contains(m.Run().status, "start") {
		t.Fatalf("back past the start: event %d, status %q", ss.Event(), m.Run().status)
	}
}

func TestPlayTicksAndGenerations(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	r := m.Run()
	g0 := r.Gen()
	if cmd := press(m, "space"); cmd == nil || !r.Playing() {
		t.Fatal("space should start the play loop with a tick")
	}
	g1 := r.Gen()
	if g1 == g0 {
		t.Fatal("play must bump the generation")
	}
	t0 := r.Player().Now()
	_, cmd := m.Update(play.Tick{Gen: g1})
	if cmd == nil {
		t.Fatal("a current tick must re-arm the loop")
	}
	want := t0 + time.Duration(r.Speed()*float64(play.Frame))
	if got := r.Player().Now(); got != want {
		t.Fatalf("one tick at %v×: cursor %v, want %v", r.Speed(), got, want)
	}
	// A stale tick (from before a speed change) is dropped.
	press(m, "]")
	if r.Gen() == g1 || r.Speed() != 2*play.DefaultSpeed {
		t.Fatalf("] must double the speed and bump the generation (gen %d, speed %v)", r.Gen(), r.Speed())
	}
	before := r.Player().Now()
	if _, cmd := m.Update(play.Tick{Gen: g1}); cmd != nil || r.Player().Now() != before {
		t.Fatal("a stale tick must neither advance nor re-arm")
	}
	// Seeking bumps the generation too.
	g2 := r.Gen()
	press(m, "n")
	if r.Gen() == g2 {
		t.Fatal("a step must bump the generation")
	}
	// Pause: the tick armed just before is dropped.
	g3 := r.Gen()
	press(m, "space")
	if r.Playing() {
		t.Fatal("space should pause")
	}
	if _, cmd := m.Update(play.Tick{Gen: g3}); cmd != nil {
		t.Fatal("a tick after pause must not re-arm")
	}
	// Playing to the end stops the loop by itself.
	press(m, "space")
	for i := 0; i < 10000 && r.Playing(); i++ {
		m.Update(play.Tick{Gen: r.Gen()})
	}
	if r.Playing() || !r.Player().AtEnd() {
		t.Fatalf("play should stop at the end (playing %v, event %d/%d)", r.Playing(), r.Player().Event(), r.Player().Total())
	}
}

func TestSpeedRange(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	for i := 0; i < 40; i++ {
		press(m, "]")
	}
	if s := m.Run().Speed(); s != play.MaxSpeed {
		t.Fatalf("speed capped at %v, want %v", s, play.MaxSpeed)
	}
	for i := 0; i < 80; i++ {
		press(m, "[")
	}
	if s := m.Run().Speed(); s != play.MinSpeed {
		t.Fatalf("speed floor %v, want %v", s, play.MinSpeed)
	}
}

func TestNextMark(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	press(m, "g")
	ss := m.Run().Player()
	if e := ss.Events()[ss.Event()-1]; e.Kind != "fault" {
		t.Fatalf("g should land on the GC pause, landed after %v", e)
	}
	press(m, "g")
	if e := ss.Events()[ss.Event()-1]; e.Kind != "VIOLATION" || ss.Events()[ss.Event()-2].Kind != "acquired" {
		t.Fatalf("second g should land on the violation, landed after %v", e)
	}
}

// Injecting faults, writing the run with w, and replaying the file headless
// gives the same outcome: metrics and trace hash.
func TestInjectWriteReplay(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	stepTo(t, m, 10)
	press(m, "j") // client A (the default selection): clock jump
	if m.Run().prompt == nil {
		t.Fatal("j should ask for the amount")
	}
	press(m, "backspace", "backspace", "backspace", "backspace", "+", "7", "s", "enter")
	ss := m.Run().Player()
	if len(ss.Injected()) != 1 || ss.Injected()[0].By != 7*time.Second || ss.Injected()[0].Target != "A" {
		t.Fatalf("injected %v, status %q", ss.Injected(), m.Run().status)
	}
	stepTo(t, m, ss.Event()+5)
	press(m, "tab", "j") // focus Nodes: redis-1
	press(m, "backspace", "backspace", "backspace", "backspace", "+", "2", "5", "s", "enter")
	if len(ss.Injected()) != 2 || ss.Injected()[1].Target != "redis-1" {
		t.Fatalf("second injection %v, status %q", ss.Injected(), m.Run().status)
	}
	// The node's clock now runs 25s ahead, and the key expired early.
	if n := m.Run().snap.Nodes[0]; n.ClockOffset != 25*time.Second {
		t.Fatalf("redis-1 clock offset %v, want +25s", n.ClockOffset)
	}
	// Stepping back before the faults and forward again is consistent.
	at := ss.Event()
	press(m, "b", "b", "b", "n", "n", "n")
	if ss.Event() != at || len(ss.Injected()) != 2 {
		t.Fatalf("back and forth: event %d want %d", ss.Event(), at)
	}
	replayWritten(t, m)
}

// replayWritten writes m's run with w, replays the file headless and fails
// unless it loads and gives the run's outcome: trace hash, metrics, event
// count, and expectations that hold.
func replayWritten(t *testing.T, m *Model) {
	t.Helper()
	press(m, "w")
	if !strings.Contains(m.Run().status, "wrote") {
		t.Fatalf("w: %q", m.Run().status)
	}
	path := filepath.Join(m.c.outDir, m.Run().Player().Scenario().Name+"-live.yaml")
	f, err := scenario.LoadFile(path)
	if err != nil {
		data, _ := os.ReadFile(path)
		t.Fatalf("written scenario does not load: %v\n%s", err, data)
	}
	r, err := runner.New(f.Scenarios[0], scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, want := r.Run(), m.Run().Player().Final()
	if got.TraceHash != want.TraceHash || got.Metrics != want.Metrics || got.Events != want.Events {
		t.Fatalf("replay differs:\n got %+v\nwant %+v", got, want)
	}
	if !got.OK {
		t.Fatalf("the written expectations fail on replay: %+v", got.Expectations)
	}
}

func TestInjectRefused(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	press(m, "tab", "p") // a GC pause on a node
	if m.Run().prompt != nil || m.Run().statusOK {
		t.Fatalf("pause on a node should be refused, status %q", m.Run().status)
	}
	press(m, "f") // failover without replicas: the validator says why
	if m.Run().statusOK || !strings.Contains(m.Run().status, "replica") {
		t.Fatalf("failover without replica: status %q", m.Run().status)
	}
	press(m, "tab", "tab", "tab", "tab", "p", "esc")
	if m.Run().prompt != nil || len(m.Run().Player().Injected()) != 0 {
		t.Fatal("esc should cancel the prompt")
	}
}

func TestCrashClientNoPrompt(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	stepTo(t, m, 3)
	press(m, "x")
	snap := m.Run().snap
	if snap.Clients[0].State != "crashed" {
		t.Fatalf("x on A: state %q, status %q", snap.Clients[0].State, m.Run().status)
	}
}

func TestMermaidFile(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	press(m, "m")
	data, err := os.ReadFile(filepath.Join(m.c.outDir, "gc-pause-wrong-delete.mmd"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, want := range []string{"sequenceDiagram", "participant redis_1 as redis-1", "A->>redis_1: SET lock:order:8801 A-1 NX PX 30000",
		"Note over A: 1.000s FAULT: GC pause", "Note over B: 30.052s VIOLATION", "participant resource"} {
		if !strings.Contains(s, want) {
			t.Errorf("diagram lacks %q", want)
		}
	}
}

// The view never has more lines than the terminal, nor wider ones.
func TestViewFitsTerminal(t *testing.T) {
	sizes := [][2]int{{60, 16}, {80, 24}, {100, 30}, {120, 40}, {200, 60}, {59, 30}, {100, 15}, {20, 5}}
	for _, name := range []string{"gc-pause-wrong-delete", "counter-30x200", "fair-fifo"} {
		for _, sz := range sizes {
			m := openModel(t, name, sz[0], sz[1])
			for _, keys := range [][]string{nil, {"g", "g"}, {"n", "tab", "?"}} {
				press(m, keys...)
				checkFits(t, name, m.View(), sz[0], sz[1])
			}
			press(m, "esc")
			checkFits(t, name+" picker", m.View(), sz[0], sz[1])
			m.Close() // its checkpoint builder would compete with the next sizes
		}
	}
	m := openModel(t, "gc-pause-wrong-delete", 50, 10)
	if !strings.Contains(m.View(), "terminal too small") {
		t.Fatal("50x10 should say the terminal is too small")
	}
}

func checkFits(t *testing.T, what, v string, w, h int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) > h {
		t.Fatalf("%s at %dx%d: %d lines", what, w, h, len(lines))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Fatalf("%s at %dx%d: line %d is %d wide: %q", what, w, h, i, lw, l)
		}
	}
}

func TestCompareSharedCursor(t *testing.T) {
	f := bundled(t)
	m, err := New(f, Config{Open: "gc-pause-wrong-delete", Compare: [2]string{"set-del", "lua-release"}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.finishBuild()
	m.Update(teaSize(120, 40))
	c := m.Compare()
	press(m, "n", "n", "n", "n")
	for _, s := range c.sides {
		if s.Now() != c.Now() {
			t.Fatalf("side at %v, shared cursor %v", s.Now(), c.Now())
		}
	}
	at := c.Now()
	press(m, "n", "b")
	if c.Now() != at {
		t.Fatalf("n then b: %v, want %v", c.Now(), at)
	}
	if v := c.sides[0].Final().Verdict(); v != "UNSAFE" {
		t.Fatalf("set-del verdict %s", v)
	}
}

// The help page shows every key at every supported size: on a small
// terminal in more columns, never cut off.
func TestHelpListsEveryKey(t *testing.T) {
	for _, sz := range [][2]int{{60, 16}, {70, 18}, {80, 24}, {120, 40}} {
		m := openModel(t, "gc-pause-wrong-delete", sz[0], sz[1])
		press(m, "?")
		v := m.View()
		for _, g := range DefaultKeys().FullHelp() {
			for _, b := range g {
				if !strings.Contains(v, b.Help().Desc) {
					t.Errorf("%dx%d: help lacks %q (%s)", sz[0], sz[1], b.Help().Desc, b.Help().Key)
				}
			}
		}
	}
}

// h, d and s ask for a hang, a drift rate and a slow link, and inject them;
// nonsense is refused with a reason and injects nothing.
func TestInjectHangDriftSlow(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	stepTo(t, m, 5)
	ss := m.Run().Player()
	press(m, "h", "enter") // A, the default 30s
	press(m, "d", "0", "enter")
	if m.Run().prompt == nil || !strings.Contains(m.Run().prompt.err, "clock rate") {
		t.Fatalf("a drift rate of 0 must be refused and keep the prompt, prompt %+v", m.Run().prompt)
	}
	press(m, "esc")
	press(m, "tab", "d", "2", "x", "enter") // redis-1 runs twice as fast
	press(m, "s", "5", "0", "m", "s", " ", "0", ".", "5", "enter")
	got := ss.Injected()
	if len(got) != 3 {
		t.Fatalf("injected %v, status %q", got, m.Run().status)
	}
	if f := got[0]; f.Kind != faults.Hang || f.Target != "A" || f.For != 30*time.Second {
		t.Errorf("hang: %+v", f)
	}
	if f := got[1]; f.Kind != faults.ClockDrift || f.Target != "redis-1" || f.Rate != 2 {
		t.Errorf("drift: %+v", f)
	}
	if f := got[2]; f.Kind != faults.Slow || f.Target != "redis-1" || f.Latency != 50*time.Millisecond || f.Loss != 0.5 || f.For != 10*time.Second {
		t.Errorf("slow: %+v", f)
	}
	press(m, "h") // redis-1 is still selected: a node has no work thread
	if m.Run().prompt != nil || len(ss.Injected()) != 3 || !strings.Contains(m.Run().status, "work thread") {
		t.Fatalf("a hang on a node must be refused, status %q", m.Run().status)
	}
	replayWritten(t, m) // the written scenario replays to the same outcome
	for _, bad := range []string{"abc", "200ms 2", "0s 0", "1s 0 -1s", "1 2 3 4"} {
		p := newPrompt(faults.Slow, "A", false, false)
		p.input.SetValue(bad)
		if _, err := p.fault(); err == nil {
			t.Errorf("slow %q accepted", bad)
		}
	}
}

// w and m never overwrite: a second press writes a numbered copy.
func TestWriteDoesNotOverwrite(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	press(m, "w", "w", "m", "m")
	for _, name := range []string{"gc-pause-wrong-delete-live.yaml", "gc-pause-wrong-delete-live-2.yaml",
		"gc-pause-wrong-delete.mmd", "gc-pause-wrong-delete-2.mmd"} {
		if _, err := os.Stat(filepath.Join(m.c.outDir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if !strings.Contains(m.Run().status, "gc-pause-wrong-delete-2.mmd") {
		t.Errorf("status should name the file written: %q", m.Run().status)
	}
}

// Keys typed ahead or fast reach bubbletea in one read and arrive as one
// message with several runes; each still counts as its own key.
func TestTypedAheadKeys(t *testing.T) {
	m, err := New(bundled(t), Config{OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.Update(teaSize(120, 35))
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/counter")})
	if got := m.picker.FilterValue(); got != "counter" {
		t.Fatalf("filter %q after typing /counter in one burst", got)
	}
	r := openModel(t, "gc-pause-wrong-delete", 100, 30)
	r.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("nnn")})
	if got := r.Run().Player().Event(); got != 3 {
		t.Fatalf("nnn in one burst: event %d, want 3", got)
	}
	// A paste is text, not keys: it is left alone.
	r.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("nn"), Paste: true})
	if got := r.Run().Player().Event(); got != 3 {
		t.Fatalf("a pasted nn moved the cursor to %d", got)
	}
}

// P asks for a partition's groups: "rest" stands for every process not
// named, the duration is optional; bad groups are refused with a reason.
func TestInjectPartition(t *testing.T) {
	m := openModel(t, "gc-pause-wrong-delete", 100, 30)
	stepTo(t, m, 3)
	ss := m.Run().Player()
	press(m, "P", "enter") // the default: A against everyone else, 10s
	press(m, "P", "A", " ", "r", "e", "d", "i", "s", "-", "1", " ", "|", " ", "B", "enter")
	got := ss.Injected()
	if len(got) != 2 {
		t.Fatalf("injected %v, status %q", got, m.Run().status)
	}
	if f := got[0]; f.Kind != faults.Partition || !reflect.DeepEqual(f.Groups, [][]string{{"A"}, {"B", "C", "redis-1"}}) || f.For != 10*time.Second {
		t.Errorf("default partition: %+v", f)
	}
	if f := got[1]; !reflect.DeepEqual(f.Groups, [][]string{{"A", "redis-1"}, {"B"}}) || f.For != 10*time.Second {
		t.Errorf("typed partition: %+v", f)
	}
	press(m, "P", "A", " ", "|", " ", "n", "o", "p", "e", "enter")
	if p := m.Run().prompt; len(ss.Injected()) != 2 || p == nil || !strings.Contains(p.err, "unknown process") {
		t.Fatalf("an unknown name must be refused by the scenario check and keep the prompt, prompt %+v", p)
	}
	press(m, "esc")
	replayWritten(t, m)
	for _, bad := range []string{"A", "A | rest | rest", "A | B -1s", "A B C redis-1 | rest"} {
		p := newPrompt(faults.Partition, "A", false, false)
		p.procs = []string{"A", "B", "C", "redis-1"}
		p.input.SetValue(bad)
		if f, err := p.fault(); err == nil {
			t.Errorf("partition %q accepted: %+v", bad, f)
		}
	}
}
