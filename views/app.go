// Package views is lockstep's terminal interface: a picker of scenarios, the
// run view (step, play, inject faults, export), the compare view and help.
// Views draw from player.Snapshots and never poke the simulated world.
package views

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/scenario"
)

// Config says how the TUI starts.
type Config struct {
	Open    string    // scenario to open at once; "" shows the picker
	Compare [2]string // strategies to compare; empty: c compares the scenario's own with redlock (or lua-release)
	OutDir  string    // where w and m write files; "" = the current directory
	// EventBudget bounds every run the TUI builds (0: DefaultEventBudget).
	EventBudget int64
}

// DefaultEventBudget bounds the kernel events of a run the TUI builds unless
// Config.EventBudget (tui --budget) says otherwise. It is a tenth of the
// headless scenario.DefaultEventBudget because the TUI keeps every trace
// line of a run in memory, for the log and for stepping back (~350 bytes a
// line): a run cut short here costs a few hundred MB, not gigabytes. The
// largest bundled scenario takes about 1.2e5 events.
const DefaultEventBudget = 1_000_000

type screen int

const (
	screenPicker screen = iota
	screenRun
	screenCompare
)

// Model is the root bubbletea model: it owns the size, routes messages to
// the current screen and keeps the players' runners closed when they are
// dropped.
type Model struct {
	c        *ctx
	file     *scenario.File
	cfg      Config
	screen   screen
	picker   pickerModel
	run      *RunModel
	cmp      *CompareModel
	showHelp bool
	err      string
	quitting bool // q or ctrl+c: the last frame is blank, runners close after the program ends

	build    *build        // the run being built off the UI goroutine, or nil
	buildSeq int           // ids builds, so that an abandoned one's result is dropped
	initCmd  tea.Cmd       // the build of Config.Open, started by Init
	ready    chan struct{} // closed once Config.Open's build is over (Ready)
}

// New makes the TUI for f.
func New(f *scenario.File, cfg Config) (*Model, error) {
	c := newCtx(cfg.OutDir)
	m := &Model{c: c, file: f, cfg: cfg, picker: newPicker(c, f), ready: make(chan struct{})}
	if cfg.Open == "" {
		close(m.ready)
		return m, nil
	}
	s, err := f.Find(cfg.Open)
	if err != nil {
		return nil, err
	}
	// Built off the UI goroutine once the program starts (Init).
	if cfg.Compare[0] != "" {
		m.initCmd = m.openCompare(s)
	} else {
		m.initCmd = m.openRun(s)
	}
	return m, nil
}

// Run is the run view, or nil.
func (m *Model) Run() *RunModel { return m.run }

// Compare is the compare view, or nil.
func (m *Model) Compare() *CompareModel { return m.cmp }

// Close ends every runner the model holds; call it after the program exits.
func (m *Model) Close() {
	m.abandonBuild()
	if m.run != nil {
		m.run.pl.Close()
		m.run = nil
	}
	if m.cmp != nil {
		m.cmp.Close()
		m.cmp = nil
	}
}

// closeCompare ends the compare view's runners, if it is open.
func (m *Model) closeCompare() {
	if m.cmp != nil {
		m.cmp.Close()
		m.cmp = nil
	}
}

// leaveCompare goes back to the run view the compare view was opened from,
// at the compare view's cursor, or to the picker when it was opened at once.
func (m *Model) leaveCompare() tea.Cmd {
	at := m.cmp.Now()
	m.closeCompare()
	if m.run == nil {
		m.screen = screenPicker
		return nil
	}
	m.screen = screenRun
	m.run.pl.SeekTime(at)
	return m.run.seeked()
}

// openRun builds s for the run view, off the UI goroutine.
func (m *Model) openRun(s *scenario.Scenario) tea.Cmd { return m.buildRun(s) }

// openCompare builds the compare view of s, off the UI goroutine.
func (m *Model) openCompare(s *scenario.Scenario) tea.Cmd {
	base := m.runOptions()
	var at time.Duration
	if m.run != nil {
		// Carry the run's injected faults and cursor over.
		base.ExtraFaults = m.run.pl.Injected()
		at = m.run.pl.Now()
	}
	a, b := m.cfg.Compare[0], m.cfg.Compare[1]
	if a == "" {
		// The scenario's own design against the other half of the
		// format's default pair (lua-release, redlock).
		a, b = s.Lock.Strategy, "redlock"
		if a == b {
			b = "lua-release"
		}
	}
	return m.buildCompare(s, a, b, base, at)
}

// eachRune handles the runes of msg one key at a time. bubbletea delivers
// the characters of one read as a single message: keys typed ahead while
// the program starts, or typed fast, would otherwise arrive as "/coun" or
// "nnn" and match no binding.
func (m *Model) eachRune(msg tea.KeyMsg) tea.Cmd {
	var cmds []tea.Cmd
	for _, r := range msg.Runes {
		k := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}
		if r == ' ' {
			k = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{r}, Alt: msg.Alt}
		}
		_, cmd := m.Update(k)
		cmds = append(cmds, cmd)
	}
	return tea.Sequence(cmds...)
}

// Init builds the scenario Config.Open names; the play loop starts on space.
func (m *Model) Init() tea.Cmd { return m.initCmd }

// Update routes msg to the current screen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k := m.c.keys
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.w, m.c.h = msg.Width, msg.Height
		m.picker.setSize(msg.Width, msg.Height)
		return m, nil
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			return m, m.eachRune(msg)
		}
		if cmd, ok := m.buildKey(msg); ok {
			return m, cmd
		}
		if msg.Type == tea.KeyCtrlC {
			return m.quit()
		}
		prompting := (m.screen == screenRun && (m.run.prompt != nil || m.run.jump != nil)) ||
			(m.screen == screenCompare && m.cmp.Prompting())
		filtering := m.screen == screenPicker && m.picker.filtering()
		if !prompting && !filtering {
			if m.showHelp {
				m.showHelp = false
				if key.Matches(msg, k.Quit) {
					return m.quit()
				}
				return m, nil
			}
			switch {
			case key.Matches(msg, k.Quit):
				return m.quit()
			case key.Matches(msg, k.Help) && m.screen != screenPicker:
				m.showHelp = true
				return m, nil
			}
		}
		m.err = ""
		switch m.screen {
		case screenPicker:
			if msg.Type == tea.KeyEnter {
				s := m.picker.selected()
				if filtering {
					// One enter takes the filter and opens its first match.
					term := m.picker.list.FilterValue()
					s = m.picker.firstMatch()
					m.picker.update(msg)
					if s == nil {
						m.err = tr("%q matches no scenario (esc clears the filter)", term)
					}
				}
				if s != nil {
					if m.cfg.Compare[0] != "" {
						return m, m.openCompare(s)
					}
					return m, m.openRun(s)
				}
				return m, nil
			}
			return m, m.picker.update(msg)
		case screenRun:
			if !prompting {
				switch {
				case (key.Matches(msg, k.Picker) || key.Matches(msg, k.Compare)) && m.run.refuseRecorded():
					return m, nil
				case key.Matches(msg, k.Picker):
					m.Close()
					m.screen = screenPicker
					return m, nil
				case key.Matches(msg, k.Compare):
					return m, m.openCompare(m.run.pl.Scenario())
				}
			}
			cmd := m.run.Update(msg)
			if f := m.run.pendingFault; f != nil {
				m.run.pendingFault = nil
				return m, tea.Batch(cmd, m.buildInject(*f))
			}
			return m, cmd
		case screenCompare:
			if key.Matches(msg, k.Picker) && !prompting {
				return m, m.leaveCompare()
			}
			return m, m.cmp.Update(msg)
		}
	case list.FilterMatchesMsg:
		// The filter's results reach the list even when a scenario was
		// opened before they arrived (esc comes back to them).
		return m, m.picker.update(msg)
	case builtMsg:
		return m, m.onBuilt(msg)
	case buildTickMsg:
		if m.build != nil && m.build.id == msg.id {
			return m, m.buildTicker(msg.id)
		}
		return m, nil
	case tickMsg:
		switch {
		case m.screen == screenRun:
			return m, m.run.Update(msg)
		case m.screen == screenCompare:
			return m, m.cmp.Update(msg)
		}
		return m, nil
	}
	if m.screen == screenPicker {
		return m, m.picker.update(msg)
	}
	return m, nil
}

// quit ends the program. The runners stay open until the caller's Close,
// after the program's last frame: bubbletea draws View once more after
// tea.Quit, and that frame must not reach into a closed player.
func (m *Model) quit() (tea.Model, tea.Cmd) {
	m.quitting = true
	return m, tea.Quit
}

// View draws the current screen, never more lines than the terminal has.
func (m *Model) View() string {
	w, h := m.c.w, m.c.h
	if w == 0 || h == 0 || m.quitting {
		return ""
	}
	if w < MinWidth || h < MinHeight {
		return tooSmall(w, h, MinWidth, MinHeight)
	}
	if m.build != nil {
		return m.buildView(w)
	}
	if m.showHelp {
		return m.helpView(w, h)
	}
	switch m.screen {
	case screenRun:
		return m.run.View()
	case screenCompare:
		return m.cmp.View()
	}
	v := m.picker.view(w, h)
	if m.err != "" {
		lines := strings.Split(v, "\n")
		lines[len(lines)-1] = fit(m.c.st.Bad.Render("✖ "+termtext.Escape(m.err)), w)
		v = strings.Join(lines, "\n")
	}
	return v
}

func (m *Model) helpView(w, h int) string {
	st := m.c.st
	lines := []string{tr("Keys (any key closes this page)"), ""}
	room := h - 2 - len(lines) // inside the box, below the title
	keys := m.helpKeys(w-2, room)
	if !fits(keys, w-2, room) {
		lines = lines[:1] // a small terminal: every line for the keys
		keys = m.helpKeys(w-2, room+1)
	}
	lines = append(lines, keys...)
	if m.screen == screenCompare {
		lines = append(lines, "",
			tr("Both columns share one true-time cursor; each has its own verdict."),
			tr("g goes to the next fault or violation on either side; : goes to a true time"),
			tr("(each side counts its own steps, so #N is the run view's)."))
		return render(box(st, tr("Help"), lines, w, h, true), h)
	}
	lines = append(lines, "",
		tr("Faults strike the selected process (tab to Clients, Nodes or Resource, ↑/↓"),
		tr("to select) at the cursor's true time; they join the run's schedule, so"),
		tr("stepping back and forth stays consistent. w writes the run as a scenario file."),
		tr("A step (n, b, the header's count) is one move of the simulation: up to the"),
		tr("next trace line, with every line that moment writes (a reply and the grant"),
		tr("it makes are one step). : goes to a true time (12.5s) or a step (#340)."),
		"",
		tr("Clients: belief = what the client thinks (lease until, by its own clock);"),
		tr("truth = key✓ its token is the lock key's value, cs✓ in its critical section."),
		tr("⚠ marks a client whose belief and truth disagree."),
		tr("Nodes: ● up ✖ down ◌ refusing (loading) ⇹ partitioned; TTL bars by the node's clock."),
	)
	return render(box(st, tr("Help"), lines, w, h, true), h)
}

// helpGroups are the keys that work on the current screen, by purpose.
func (m *Model) helpGroups() [][]key.Binding {
	if m.screen == screenCompare {
		return m.c.keys.compareKeys(m.cmp.back)
	}
	return m.c.keys.FullHelp()
}

// fits reports whether lines fit in w columns and h lines.
func fits(lines []string, w, h int) bool {
	if len(lines) > h {
		return false
	}
	for _, l := range lines {
		if lipgloss.Width(l) > w {
			return false
		}
	}
	return true
}

// helpKeys lays out every key binding in at most w columns and, if it can,
// h lines: by purpose, as many groups side by side as the width allows;
// when that is too tall (a small terminal), one binding per line in as many
// columns as the height needs, so that no key is ever cut off.
func (m *Model) helpKeys(w, h int) []string {
	m.c.help.Width = 0
	groups := m.helpGroups()
	const gap = 4
	var lines, row []string
	rowW := 0
	flush := func() {
		if len(row) > 0 {
			if len(lines) > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, row...), "\n")...)
		}
		row, rowW = nil, 0
	}
	for _, g := range groups {
		col := m.c.help.FullHelpView([][]key.Binding{g})
		cw := lipgloss.Width(col)
		if len(row) > 0 && rowW+gap+cw > w {
			flush()
		}
		if len(row) > 0 {
			col = lipgloss.NewStyle().PaddingLeft(gap).Render(col)
			cw += gap
		}
		row, rowW = append(row, col), rowW+cw
	}
	flush()
	if len(lines) <= h || h < 1 {
		return lines
	}
	// Too tall: one binding per line, in as many columns as h requires.
	var flat []key.Binding
	for _, g := range groups {
		flat = append(flat, g...)
	}
	var cols [][]key.Binding
	for len(flat) > 0 {
		n := min(h, len(flat))
		cols, flat = append(cols, flat[:n]), flat[n:]
	}
	return strings.Split(m.c.help.FullHelpView(cols), "\n")
}
