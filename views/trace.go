package views

import (
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/scenario/tracefile"
	"github.com/lockstep-sim/lockstep/views/picker"
)

// NewTrace makes the TUI for a recorded trace (lockstep tui --trace): the
// run view of pl, a Player opened with tracefile.OpenTrace, with nothing
// to pick and nothing to compare. Stepping, seeking, the timeline, the log
// and the panels work as for a live run; what needs the simulation (fault
// injection, writing the run as a scenario, comparing strategies) is
// refused with pl.Recorded() as the reason.
func NewTrace(pl *player.Player, cfg Config) *Model {
	c := newCtx(cfg.OutDir)
	empty := &scenario.File{}
	m := &Model{c: c, file: empty, cfg: cfg, picker: picker.New(c.st, empty), ready: make(chan struct{})}
	close(m.ready)
	m.run = newRunModel(c, pl)
	m.screen = screenRun
	m.run.status, m.run.statusOK = recordedNote(pl), true
	return m
}

// refuseRecorded says why a recorded trace cannot do what needs the
// simulation, and reports whether it did.
func (m *RunModel) refuseRecorded() bool {
	if m.pl.Recorded() != "" {
		m.clock.Stop()
		m.status, m.statusOK = recordedNote(m.pl), false
		return true
	}
	return false
}

// recordedNote is why a recorded trace refuses what needs the
// simulation, in the TUI's language.
func recordedNote(pl *player.Player) string {
	if why := pl.Recorded(); why != tracefile.RecordedNote {
		return why
	}
	return tr(tracefile.RecordedNote)
}

// recordedTag marks the header of a recorded trace's run view.
func (m *RunModel) recordedTag() string {
	if m.pl.Recorded() != "" {
		return tr(" │ recorded trace")
	}
	return ""
}
