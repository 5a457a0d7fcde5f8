package views

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/sim"
	"github.com/lockstep-sim/lockstep/views/text"
)

// A build plays runs to their end (a Player's oracle) off the UI
// goroutine: opening a scenario, opening compare, injecting a fault. While
// it runs the screen says what it builds and how far it got; q and ctrl+c
// quit (the build is cancelled: its context reaches into the run), esc
// abandons it, and any other key waits and is replayed once it is done, so
// keys typed ahead are not lost.
type build struct {
	id     int
	what   string          // "building gc-pause-lua-release"
	events atomic.Int64    // trace events played so far, by every run of the build
	ctx    context.Context // cancelled when the build is given up
	cancel context.CancelFunc
	exec   func() tea.Msg // runs the build; called once, off the UI goroutine
	apply  func(m *Model, ss []*player.Player)
	queued []tea.KeyMsg
	done   chan struct{} // closed when exec returns
	err    error         // exec's error, once done is closed
}

// builtMsg carries a finished build's players to the UI goroutine.
type builtMsg struct {
	id  int
	ss  []*player.Player
	err error
}

// buildTickMsg redraws the progress line while a build runs.
type buildTickMsg struct{ id int }

const (
	buildTick     = 100 * time.Millisecond
	maxQueuedKeys = 64 // keys typed during a build beyond these are dropped
)

// buildGate, when not nil, holds every build until it is closed or the
// build is cancelled (tests: a build that is certainly still running).
var buildGate chan struct{}

// startBuild makes m build what: open plays the runs under ctx (a
// cancelled ctx must make it return ctx's error), apply installs them on
// the UI goroutine. The returned command runs it.
func (m *Model) startBuild(what string, open func(ctx context.Context, progress *atomic.Int64) ([]*player.Player, error), apply func(*Model, []*player.Player)) tea.Cmd {
	m.abandonBuild()
	m.buildSeq++
	ctx, cancel := context.WithCancel(context.Background())
	b := &build{id: m.buildSeq, what: what, ctx: ctx, cancel: cancel, apply: apply, done: make(chan struct{})}
	// The test hook is read here, where the build is made, not in exec:
	// exec runs on a goroutine of the program's that may outlive the test
	// step that set it (a race the detector caught).
	gate := buildGate
	b.exec = func() tea.Msg {
		defer close(b.done)
		if gate != nil {
			select {
			case <-gate:
			case <-ctx.Done():
			}
		}
		var ss []*player.Player
		if ctx.Err() != nil {
			b.err = ctx.Err()
		} else {
			ss, b.err = open(ctx, &b.events)
		}
		return builtMsg{id: b.id, ss: ss, err: b.err}
	}
	m.build = b
	return tea.Batch(b.exec, m.buildTicker(b.id))
}

func (m *Model) buildTicker(id int) tea.Cmd {
	return tea.Tick(buildTick, func(time.Time) tea.Msg { return buildTickMsg{id} })
}

// abandonBuild cancels the running build; its players are closed when
// they arrive.
func (m *Model) abandonBuild() {
	if m.build != nil {
		m.build.cancel()
		m.build = nil
	}
}

// onBuilt installs a finished build, then replays the keys typed meanwhile.
func (m *Model) onBuilt(msg builtMsg) tea.Cmd {
	b := m.build
	if b == nil || msg.id != b.id {
		for _, s := range msg.ss { // abandoned
			s.Close()
		}
		return nil
	}
	m.build = nil
	b.cancel()
	if msg.err != nil {
		m.buildFailed(b, msg.err)
	} else {
		b.apply(m, msg.ss)
	}
	m.readyOnce()
	var cmds []tea.Cmd
	for _, k := range b.queued {
		_, cmd := m.Update(k)
		cmds = append(cmds, cmd)
	}
	return tea.Sequence(cmds...)
}

func (m *Model) buildFailed(b *build, err error) {
	msg := fmt.Sprintf("%s: %v", b.what, err)
	if errors.Is(err, context.Canceled) {
		msg = tr("%s: cancelled", b.what)
	}
	if m.screen == screenRun && m.run != nil {
		m.run.setStatus(false, "%s", msg)
		return
	}
	m.err = msg
}

// buildKey handles a key while a build runs; false lets it through (there
// is no build).
func (m *Model) buildKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	b := m.build
	if b == nil {
		return nil, false
	}
	switch {
	case msg.Type == tea.KeyCtrlC || (msg.Type == tea.KeyRunes && string(msg.Runes) == "q"):
		m.abandonBuild()
		m.readyOnce()
		_, cmd := m.quit()
		return cmd, true
	case msg.Type == tea.KeyEsc:
		what := b.what
		m.abandonBuild()
		m.readyOnce()
		if m.screen == screenRun && m.run != nil {
			m.run.setStatus(true, "%s: cancelled", what)
		} else {
			m.err = tr("%s: cancelled", what)
		}
		return nil, true
	}
	if len(b.queued) < maxQueuedKeys {
		b.queued = append(b.queued, msg)
	}
	return nil, true
}

// buildLine is the progress line shown while a build runs.
func (m *Model) buildLine(w int) string {
	st := m.c.st
	return text.Fit(st.Info.Render(tr("⧗ %s… %s events", m.build.what, thousands(m.build.events.Load())))+
		st.Muted.Render(tr("  q quit · esc cancel")), w)
}

// buildView is the screen under the build, its last line the progress.
func (m *Model) buildView(w int) string {
	b := m.build
	m.build = nil
	v := m.View()
	m.build = b
	lines := strings.Split(v, "\n")
	lines[len(lines)-1] = m.buildLine(w)
	return strings.Join(lines, "\n")
}

// thousands writes n with comma separators: 12,345.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// readyOnce closes m.ready: the first build is over (Ready).
func (m *Model) readyOnce() {
	select {
	case <-m.ready:
	default:
		close(m.ready)
	}
}

// Ready is closed once the scenario Config.Open names is built (or the
// build was given up): tests wait on it before they send keys.
func (m *Model) Ready() <-chan struct{} { return m.ready }

// finishBuild runs m's pending build on this goroutine and installs it, as
// the program does with startBuild's command (tests that drive Update by
// hand).
func (m *Model) finishBuild() {
	for m.build != nil {
		m.Update(m.build.exec())
	}
}

// buildRun opens s for the run view.
func (m *Model) buildRun(s *scenario.Scenario) tea.Cmd {
	opts := m.runOptions()
	return m.startBuild(tr("building %s", s.Name), func(ctx context.Context, p *atomic.Int64) ([]*player.Player, error) {
		ss, err := player.OpenContext(ctx, s, opts, p)
		if err != nil {
			return nil, err
		}
		return []*player.Player{ss}, nil
	}, func(m *Model, ss []*player.Player) {
		m.Close()
		m.run = newRunModel(m.c, ss[0])
		m.screen = screenRun
		budgetNote(m.run, ss[0])
	})
}

// runOptions are the options every run the TUI builds uses.
func (m *Model) runOptions() scenario.Options {
	b := m.cfg.EventBudget
	if b <= 0 {
		b = DefaultEventBudget
	}
	return scenario.Options{EventBudget: b}
}

// budgetNote says so when the run stopped because it spent its event
// budget: everything after that point was never simulated.
func budgetNote(r *RunModel, ss *player.Player) {
	if f := ss.Final(); f.BudgetExhausted {
		r.setStatus(false, "event budget exhausted at t=%s after %d kernel events: the run stops there (%s)",
			sim.FormatTime(ss.End()), f.KernelSteps, f.VerdictIn(i18n.Current()))
	}
}

// buildCompare opens s under strategies a and b, with base's injected
// faults, and shows them side by side at true time at.
func (m *Model) buildCompare(s *scenario.Scenario, a, b string, base scenario.Options, at time.Duration) tea.Cmd {
	return m.startBuild(tr("building %s: %s vs %s", s.Name, a, b), func(ctx context.Context, p *atomic.Int64) ([]*player.Player, error) {
		var out []*player.Player
		for _, strat := range []string{a, b} {
			o := base
			o.Strategy = strat
			ss, err := player.OpenContext(ctx, s, o, p)
			if err != nil {
				for _, s := range out {
					s.Close()
				}
				return nil, fmt.Errorf("strategy %s: %w", strat, err)
			}
			out = append(out, ss)
		}
		return out, nil
	}, func(m *Model, ss []*player.Player) {
		// The run view stays open underneath: esc comes back to it, faults and all.
		m.closeCompare()
		m.cmp = openCompare(m.c, [2]*player.Player{ss[0], ss[1]}, at)
		if m.run != nil {
			m.cmp.back = tr("back to the run")
		}
		m.screen = screenCompare
	})
}

// buildInject replays the run view's scenario with f injected at the
// cursor; the view stays usable meanwhile (keys wait), and the cursor lands
// just after the fault strikes.
func (m *Model) buildInject(f faults.Fault) tea.Cmd {
	r := m.run
	opts, f, err := r.pl.WithFault(f)
	if err != nil {
		r.setStatus(false, "not injected: %v", err)
		return nil
	}
	s := r.pl.Scenario()
	return m.startBuild(tr("injecting %s at %s", f.StringIn(lang()), text.Secs(f.At)), func(ctx context.Context, p *atomic.Int64) ([]*player.Player, error) {
		ss, err := player.OpenContext(ctx, s, opts, p)
		if err != nil {
			return nil, err
		}
		return []*player.Player{ss}, nil
	}, func(m *Model, ss []*player.Player) {
		if m.run == nil || m.run != r {
			ss[0].Close()
			return
		}
		r.pl.Adopt(ss[0], f.At)
		r.injected(f)
		budgetNote(r, r.pl)
	})
}
