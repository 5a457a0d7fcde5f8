package views

import (
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
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
	m := &Model{c: c, file: empty, cfg: cfg, picker: newPicker(c, empty), ready: make(chan struct{})}
	close(m.ready)
	m.run = newRunModel(c, pl)
	m.screen = screenRun
	m.run.setStatus(true, "%s", pl.Recorded())
	return m
}

// refuseRecorded says why a recorded trace cannot do what needs the
// simulation, and reports whether it did.
func (m *RunModel) refuseRecorded() bool {
	if why := m.pl.Recorded(); why != "" {
		m.clock.stop()
		m.setStatus(false, "%s", why)
		return true
	}
	return false
}

// recordedTag marks the header of a recorded trace's run view.
func (m *RunModel) recordedTag() string {
	if m.pl.Recorded() != "" {
		return tr(" │ recorded trace")
	}
	return ""
}
