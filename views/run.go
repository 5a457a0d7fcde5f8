package views

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/views/jump"
	"github.com/lockstep-sim/lockstep/views/mermaid"
	"github.com/lockstep-sim/lockstep/views/panels"
	"github.com/lockstep-sim/lockstep/views/play"
	"github.com/lockstep-sim/lockstep/views/text"
)

// panel names the run view's focusable panels, in tab order.
type panel int

const (
	panelClients panel = iota
	panelNodes
	panelResource // the resource process: a target for the network faults
	panelTimeline
	panelLog
	panelCount
)

// RunModel is the run view: one scenario, stepped, played and faulted.
type RunModel struct {
	c  *ctx
	pl *player.Player

	snap     player.Snapshot
	prev     model.Metrics // metrics one move ago, to highlight what changed
	clock    play.Clock
	focus    panel
	selC     int // selected client
	selN     int // selected node
	target   panel
	logBack  int           // log scrolled back by this many events
	span     time.Duration // timeline window width; 0 = whole run
	prompt   *prompt
	detail   bool // v: the first violation and the cursor's event in full, until any key
	status   string
	statusOK bool

	jump         *jump.Prompt  // the ":" prompt, when open
	pendingFault *faults.Fault // a fault to inject, for the root model to build off the UI goroutine

	cols   panels.Cols // the log's columns, measured on first use
	pinned *pinned     // the first violation as last drawn
}

func newRunModel(c *ctx, pl *player.Player) *RunModel {
	m := &RunModel{c: c, pl: pl, clock: play.New(), target: panelClients}
	m.refresh()
	m.prev = m.snap.Metrics
	return m
}

// Player is the run the view shows.
func (m *RunModel) Player() *player.Player { return m.pl }

// Gen is the play loop's generation (tests check that it is bumped).
func (m *RunModel) Gen() int { return m.clock.Gen() }

// Playing reports whether the play loop runs.
func (m *RunModel) Playing() bool { return m.clock.Playing() }

// Speed is simulated seconds per wall second.
func (m *RunModel) Speed() float64 { return m.clock.Speed() }

// refresh takes a new snapshot after the cursor moved.
func (m *RunModel) refresh() {
	m.prev = m.snap.Metrics
	m.snap = m.pl.Snapshot()
}

func (m *RunModel) setStatus(ok bool, format string, args ...any) {
	m.status, m.statusOK = tr(format, args...), ok
}

// seeked is called after any jump of the cursor: stale ticks must die.
func (m *RunModel) seeked() tea.Cmd {
	m.logBack = 0
	m.refresh()
	return m.clock.Rearm()
}

// Update handles a message for the run view.
func (m *RunModel) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case play.Tick:
		return m.onTick(msg)
	case tea.KeyMsg:
		if m.jump != nil {
			return m.updateGoto(msg)
		}
		if m.prompt != nil {
			return m.updatePrompt(msg)
		}
		if m.detail {
			m.detail = false
			return nil
		}
		return m.onKey(msg)
	}
	return nil
}

func (m *RunModel) onTick(msg play.Tick) tea.Cmd {
	if _, ok := m.clock.Advance(msg, m.pl.Now(), m.pl); !ok {
		return nil
	}
	m.refresh()
	if m.pl.AtEnd() {
		m.clock.Stop()
		m.setStatus(true, "run over: %s", m.pl.Final().VerdictIn(i18n.Current()))
		return nil
	}
	return m.clock.Next()
}

func (m *RunModel) onKey(msg tea.KeyMsg) tea.Cmd {
	k := m.c.keys
	m.status = ""
	if cmd, ok := m.playKey(msg); ok {
		return cmd
	}
	for _, fk := range k.faultKeys() {
		if key.Matches(msg, fk.binding) {
			return m.startFault(fk.kind)
		}
	}
	switch {
	case key.Matches(msg, k.Focus):
		m.focus = (m.focus + 1) % panelCount
		if m.focus == panelClients || m.focus == panelNodes || m.focus == panelResource {
			m.target = m.focus
		}
	case key.Matches(msg, k.Up), key.Matches(msg, k.Down):
		d := 1
		if key.Matches(msg, k.Up) {
			d = -1
		}
		m.move(d)
	case key.Matches(msg, k.ZoomIn), key.Matches(msg, k.ZoomOut):
		m.zoom(key.Matches(msg, k.ZoomIn))
	case key.Matches(msg, k.Detail):
		m.detail = true
	case key.Matches(msg, k.Write):
		m.write()
	case key.Matches(msg, k.Mermaid):
		m.mermaid()
	}
	return nil
}

// playKey handles the keys that move the cursor or the play loop; false
// when msg is none of them.
func (m *RunModel) playKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := m.c.keys
	switch {
	case key.Matches(msg, k.Play):
		if !m.clock.Playing() && m.pl.AtEnd() {
			m.clock.Rearm() // paused: only bumps the generation, arms nothing
			m.setStatus(true, "at the end of the run: b steps back")
			return nil, true
		}
		return m.clock.Toggle(), true
	case key.Matches(msg, k.Step):
		if !m.pl.Step() {
			m.setStatus(true, "end of the run (%d steps, %d events)", m.pl.Steps(), m.pl.Total())
		}
		return m.seeked(), true
	case key.Matches(msg, k.Back):
		if !m.pl.Back() {
			m.setStatus(true, "at the start")
		}
		return m.seeked(), true
	case key.Matches(msg, k.Home):
		m.pl.Seek(0)
		return m.seeked(), true
	case key.Matches(msg, k.End):
		m.pl.Seek(m.pl.Steps())
		return m.seeked(), true
	case key.Matches(msg, k.Goto):
		m.clock.Stop()
		m.jump = jump.New(true)
		return nil, true
	case key.Matches(msg, k.Faster):
		return m.clock.Faster(), true
	case key.Matches(msg, k.Slower):
		return m.clock.Slower(), true
	case key.Matches(msg, k.NextMark):
		i, ok := m.pl.NextMark()
		if !ok {
			m.setStatus(true, "no fault or violation after the cursor")
			return nil, true
		}
		m.pl.Seek(i)
		return m.seeked(), true
	}
	return nil, false
}

func (m *RunModel) move(d int) {
	switch m.focus {
	case panelLog:
		m.logBack = max(0, min(m.logBack-d, m.pl.Event()))
	case panelResource: // one process: nothing to select
	case panelNodes:
		m.selN = max(0, min(m.selN+d, len(m.snap.Nodes)-1))
		m.target = panelNodes
	default:
		m.selC = max(0, min(m.selC+d, len(m.snap.Clients)-1))
		m.target = panelClients
	}
}

func (m *RunModel) zoom(in bool) {
	full := max(m.pl.End(), time.Second)
	if m.span == 0 {
		m.span = full
	}
	if in {
		m.span = max(m.span/2, 100*time.Millisecond)
	} else {
		m.span *= 2
	}
	if m.span >= full {
		m.span = 0
	}
}

// selected is the process a fault would hit, and whether it is a node.
func (m *RunModel) selected() (string, bool) {
	if m.target == panelResource {
		return model.ResourceName, false
	}
	if m.target == panelNodes && len(m.snap.Nodes) > 0 {
		return m.snap.Nodes[m.selN].Name, true
	}
	if len(m.snap.Clients) > 0 {
		return m.snap.Clients[m.selC].Name, false
	}
	return "", false
}

func (m *RunModel) startFault(kind faults.Kind) tea.Cmd {
	if m.refuseRecorded() {
		return nil
	}
	name, node := m.selected()
	if why := refuseResource(kind, name); why != "" {
		m.setStatus(false, "%s", why)
		return nil
	}
	if s := faults.Lookup(kind); s != nil && s.Refuse != nil && name != model.ResourceName {
		if why := s.Refuse(node); why != "" {
			m.setStatus(false, "%s", refusal(why))
			return nil
		}
	}
	m.clock.Stop()
	if p := newPrompt(kind, name, node, m.pl.Scenario().Lock.Watchdog != nil); p != nil {
		for _, c := range m.snap.Clients {
			p.procs = append(p.procs, c.Name)
		}
		for _, n := range m.snap.Nodes {
			p.procs = append(p.procs, n.Name)
		}
		p.procs = append(p.procs, m.snap.Sentinels...)
		m.prompt = p
		return nil
	}
	return m.inject(faults.Fault{Kind: kind, Target: name})
}

// refuseResource says why kind cannot strike target when target is the
// resource: it is only a process on the network, so only the network
// faults apply (those that reach a sentinel too, isolate and slow, and the
// partition, which takes groups rather than a target).
func refuseResource(kind faults.Kind, target string) string {
	if target != model.ResourceName {
		return ""
	}
	if s := faults.Lookup(kind); s != nil && s.OnSentinel == nil && s.Untargeted == nil {
		return tr("%s does not apply to the resource, a process on the network only: i isolates it, s slows its links, P partitions it", kind)
	}
	return ""
}

func (m *RunModel) updatePrompt(msg tea.KeyMsg) tea.Cmd {
	switch msg.Type {
	case tea.KeyEsc:
		m.prompt = nil
		m.setStatus(true, "cancelled")
		return nil
	case tea.KeyEnter:
		// A refused answer keeps the prompt open with its text and says
		// why next to it: closing it would send what the user types next,
		// meant as a correction, to the run view as keys.
		f, err := m.prompt.fault()
		if err != nil {
			m.prompt.err = err.Error()
			return nil
		}
		if err := m.queueInject(f); err != nil {
			m.prompt.err = tr("not injected: %s", errText(err))
			return nil
		}
		m.prompt = nil
		return nil
	}
	before := m.prompt.input.Value()
	var cmd tea.Cmd
	m.prompt.input, cmd = m.prompt.input.Update(msg)
	if m.prompt.input.Value() != before {
		m.prompt.err = "" // the answer is being corrected
	}
	return cmd
}

// inject asks for f to be injected at the cursor: the root model replays
// the run with it off the UI goroutine (buildInject), then calls injected.
func (m *RunModel) inject(f faults.Fault) tea.Cmd {
	if err := m.queueInject(f); err != nil {
		m.setStatus(false, "not injected: %v", err)
	}
	return nil
}

// queueInject checks f against the run at the cursor (a refusal comes back
// at once, for the prompt to show beside the answer) and leaves it for the
// root model to build.
func (m *RunModel) queueInject(f faults.Fault) error {
	if _, _, err := m.pl.WithFault(f); err != nil {
		return err
	}
	m.pendingFault = &f
	return nil
}

// injected says that f is now in the run, the cursor just after it.
func (m *RunModel) injected(f faults.Fault) {
	m.setStatus(true, "injected at %s: %s (now step %d/%d; w writes it out)", text.Secs(f.At), f.StringIn(lang()), m.pl.StepAt(), m.pl.Steps())
	m.seeked()
}

func (m *RunModel) write() {
	data, err := m.pl.Export()
	if err != nil {
		m.setStatus(false, "not written: %v", err)
		return
	}
	path, err := writeNew(m.c.outDir, m.pl.Scenario().Name+"-live", ".yaml", data)
	if err != nil {
		m.setStatus(false, "not written: %v", err)
		return
	}
	m.setStatus(true, "wrote %s — replay: lockstep run -f %s", path, path)
}

func (m *RunModel) mermaid() {
	data := []byte(mermaid.Events(m.pl.Scenario().Name, mermaid.Participants(m.snap), m.pl.Events()))
	path, err := writeNew(m.c.outDir, m.pl.Scenario().Name, ".mmd", data)
	if err != nil {
		m.setStatus(false, "not written: %v", err)
		return
	}
	m.setStatus(true, "wrote %s (Mermaid sequenceDiagram of the whole run)", path)
}

// writeNew writes data to dir/base+ext, or to base-2+ext, base-3+ext, ...
// when that exists: pressing w twice, or in a directory holding an earlier
// session's file, never overwrites anything.
func writeNew(dir, base, ext string, data []byte) (string, error) {
	for i := 1; i < 1000; i++ {
		name := base + ext
		if i > 1 {
			name = base + "-" + strconv.Itoa(i) + ext
		}
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return "", err
		}
		return path, f.Close()
	}
	return "", fmt.Errorf("%s%s and 998 numbered copies exist in %s", base, ext, dir)
}
