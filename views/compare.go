package views

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/views/jump"
	"github.com/lockstep-sim/lockstep/views/panels"
	"github.com/lockstep-sim/lockstep/views/play"
	"github.com/lockstep-sim/lockstep/views/text"
)

// CompareModel shows one scenario under two strategies side by side with
// one shared true-time cursor; each column has its own verdict.
type CompareModel struct {
	c      *ctx
	sides  [2]*player.Player
	snaps  [2]player.Snapshot
	prev   [2]model.Metrics
	at     time.Duration
	clock  play.Clock
	status string
	back   string       // where esc goes: "back to the run" or tr("back to scenarios")
	jump   *jump.Prompt // the ":" prompt, when open (times only: each side counts its own steps)
}

// openCompare shows two runs of one scenario (built by the root
// model's buildCompare) side by side, at true time at.
func openCompare(c *ctx, sides [2]*player.Player, at time.Duration) *CompareModel {
	m := &CompareModel{c: c, clock: play.New(), sides: sides, back: tr("back to scenarios")}
	m.seek(at)
	return m
}

// Close ends both sides' runners.
func (m *CompareModel) Close() {
	for _, s := range m.sides {
		if s != nil {
			s.Close()
		}
	}
}

// Now is the shared cursor.
func (m *CompareModel) Now() time.Duration { return m.at }

func (m *CompareModel) refresh() {
	for i, s := range m.sides {
		m.prev[i] = m.snaps[i].Metrics
		m.snaps[i] = s.Snapshot()
	}
}

// seek moves both sides to true time t (each clamped to its run).
func (m *CompareModel) seek(t time.Duration) tea.Cmd {
	for _, s := range m.sides {
		s.SeekTime(t)
	}
	return m.moved(t)
}

// moved is called after the sides went to t: the shared cursor follows
// and stale ticks die.
func (m *CompareModel) moved(t time.Duration) tea.Cmd {
	m.at = t
	m.refresh()
	return m.clock.Rearm()
}

func (m *CompareModel) end() time.Duration { return max(m.sides[0].End(), m.sides[1].End()) }

// Update handles a message for the compare view.
func (m *CompareModel) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case play.Tick:
		t, ok := m.clock.Advance(msg, m.at, m.sides[0], m.sides[1])
		if !ok {
			return nil
		}
		if t >= m.end() {
			m.clock.Stop()
		}
		return m.moved(t)
	case tea.KeyMsg:
		if m.jump != nil {
			return m.updateGoto(msg)
		}
		return m.onKey(msg)
	}
	return nil
}

// updateGoto handles a key while the ":" prompt is open: the answer moves
// both sides to that true time.
func (m *CompareModel) updateGoto(msg tea.KeyMsg) tea.Cmd {
	ans, closed, cmd := m.jump.Update(msg, -1, m.end())
	if !closed {
		return cmd
	}
	m.jump = nil
	if ans == nil {
		if cmd == nil {
			m.status = tr("cancelled")
		}
		return cmd
	}
	return m.seek(ans.At)
}

// Prompting reports whether the ":" prompt is open (its keys are text).
func (m *CompareModel) Prompting() bool { return m.jump != nil }

func (m *CompareModel) onKey(msg tea.KeyMsg) tea.Cmd {
	k := m.c.keys
	m.status = ""
	switch {
	case key.Matches(msg, k.Play):
		return m.clock.Toggle()
	case key.Matches(msg, k.Step):
		next, ok := m.nearest((*player.Player).NextTime, true)
		return m.seekTo(next, ok, tr("both runs are over"))
	case key.Matches(msg, k.Back):
		prev, ok := m.nearest((*player.Player).PrevTime, false)
		return m.seekTo(prev, ok && m.at != 0, tr("at the start"))
	case key.Matches(msg, k.Home):
		return m.seek(0)
	case key.Matches(msg, k.End):
		return m.seek(m.end())
	case key.Matches(msg, k.Goto):
		m.clock.Stop()
		m.jump = jump.New(false)
		return nil
	case key.Matches(msg, k.NextMark):
		next, ok := m.nearest((*player.Player).NextMarkTime, true)
		return m.seekTo(next, ok, tr("no fault or violation after the cursor on either side"))
	case key.Matches(msg, k.Faster):
		return m.clock.Faster()
	case key.Matches(msg, k.Slower):
		return m.clock.Slower()
	}
	return nil
}

// nearest is the earliest (or, when !earliest, the latest) of the times
// that at reports for the two sides, and false when neither reports one.
func (m *CompareModel) nearest(at func(*player.Player) (time.Duration, bool), earliest bool) (time.Duration, bool) {
	best, ok := time.Duration(0), false
	for _, s := range m.sides {
		if t, more := at(s); more && (!ok || (t < best) == earliest) {
			best, ok = t, true
		}
	}
	return best, ok
}

// seekTo moves both sides to t when ok, and says why not otherwise.
func (m *CompareModel) seekTo(t time.Duration, ok bool, why string) tea.Cmd {
	if !ok {
		m.status = why
		return nil
	}
	return m.seek(t)
}

// Keys are the bindings that work in the compare view, for its footer and
// its help page; back is what esc says it goes back to.
func (k KeyMap) compareKeys(back string) [][]key.Binding {
	esc := k.Picker
	esc.SetHelp("esc", back)
	return [][]key.Binding{
		{k.Play, k.Step, k.Back, k.jumps(), k.NextMark, pair("] [", tr("speed ×2 ÷2"), k.Faster, k.Slower)},
		{esc, k.Help, k.Quit},
	}
}

// nonZeroNew lists the metrics the bar shows only when not 0
// (model.Metric.BarNonZero) that are not 0 in mt, by their names:
// "refused_writes 3 · throughput 0.5"; "" when none is.
func nonZeroNew(mt model.Metrics) string {
	var parts []string
	for _, x := range model.MetricTable() {
		if v := x.Of(mt); x.BarNonZero && v != 0 {
			parts = append(parts, x.Name+" "+x.Format(v))
		}
	}
	return strings.Join(parts, " · ")
}

// compareShort is the compare view's footer: its keys but home, end and
// : (the help page has them), so that esc and q stay in sight at 120
// columns.
func (k KeyMap) compareShort(back string) []key.Binding {
	var out []key.Binding
	for _, g := range k.compareKeys(back) {
		for _, b := range g {
			if b.Help().Key != k.jumps().Help().Key {
				out = append(out, b)
			}
		}
	}
	return out
}

// View draws the two columns.
func (m *CompareModel) View() string {
	w, h := m.c.w, m.c.h
	if w < MinWidth || h < MinHeight {
		return text.TooSmall(w, h, MinWidth, MinHeight)
	}
	st := m.c.st
	play := tr("❚❚ paused")
	if m.clock.Playing() {
		play = tr("▶ playing")
	}
	s0 := m.sides[0].Scenario()
	header := text.Fit(fmt.Sprintf(tr("%s │ compare %s │ t %s │ %s %s │ %s vs %s"),
		st.Title.Render("lockstep"), st.Header.Render(termtext.Escape(s0.Name)), text.Secs(m.at), play, text.SpeedLabel(m.clock.Speed()),
		termtext.Escape(scenario.StrategyLabel(m.snaps[0].Strategy, m.snaps[0].Client)), termtext.Escape(scenario.StrategyLabel(m.snaps[1].Strategy, m.snaps[1].Client))), w)
	lw := w / 2
	cols := make([][]string, 2)
	for i, ss := range m.sides {
		cw := lw
		if i == 1 {
			cw = w - lw
		}
		cols[i] = m.column(i, ss, cw, h-2)
	}
	foot := m.status
	if m.jump != nil {
		foot = m.jump.Footer(st, tr("time"), w)
	} else if foot == "" {
		m.c.help.Width = w
		foot = m.c.help.ShortHelpView(m.c.keys.compareShort(m.back))
	}
	lines := append([]string{header}, text.HJoin(cols[0], cols[1])...)
	lines = append(lines, text.Fit(foot, w))
	return text.Render(lines, h)
}

func (m *CompareModel) column(i int, ss *player.Player, w, h int) []string {
	st := m.c.st
	snap := m.snaps[i]
	fin := ss.Final()
	verdict := st.Good.Render("✓ " + fin.VerdictIn(i18n.Current()))
	if !fin.Safe || fin.Stuck {
		verdict = st.Bad.Render("✖ " + fin.VerdictIn(i18n.Current()))
	}
	var in []string
	in = append(in, fmt.Sprintf(tr("final verdict %s │ step %d/%d"), verdict, ss.StepAt(), ss.Steps()))
	cl, _ := panels.Clients(st, snap, w-2, -1, false)
	in = append(in, st.Header.Render(tr("clients  belief │ truth")))
	in = append(in, cl...)
	nl, _ := panels.Nodes(st, snap, w-2, -1, false, ss.Scenario().Lock.TTL)
	in = append(in, st.Header.Render(tr("nodes")))
	in = append(in, nl...)
	in = append(in, panels.ResourceLine(st, snap.Resource))
	mt := snap.Metrics
	in = append(in,
		fmt.Sprintf(" violations %d · lost_updates %d · wrong_releases %d", mt.Violations, mt.LostUpdates, mt.WrongReleases),
		fmt.Sprintf(" fencing_rejections %d · acquired %d · stuck %t", mt.FencingRejections, mt.Acquired, mt.Stuck))
	if nz := nonZeroNew(mt); nz != "" {
		in = append(in, " "+nz)
	}
	if fv := panels.FirstViolation(snap); fv != "" {
		for _, l := range text.WrapIndent("✖ "+termtext.Escape(fv), w-2, 2) {
			in = append(in, st.Bad.Render(l))
		}
	}
	// The last events fill what is left.
	evs := ss.Events()[:ss.Event()]
	room := h - 2 - len(in)
	if room > 1 {
		in = append(in, st.Header.Render(tr("log")))
		room--
		cols := panels.ColsFor(ss.End(), snap)
		// The cursor's event in full (a long reply wraps), older ones a line each.
		var cur []string
		if n := len(evs); n > 0 {
			cur = panels.WrapEvent(st, evs[n-1], "", cols, w-2)
			cur = cur[:min(len(cur), room)]
			evs = evs[:n-1]
		}
		for _, e := range evs[max(0, len(evs)-(room-len(cur))):] {
			in = append(in, panels.EventLine(st, e, "", cols, false))
		}
		in = append(in, cur...)
	}
	return text.Box(st, termtext.Escape(scenario.StrategyLabel(snap.Strategy, snap.Client)), in, w, h, false)
}
