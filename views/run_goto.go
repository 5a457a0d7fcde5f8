package views

import tea "github.com/charmbracelet/bubbletea"

// updateGoto handles a key while the run view's ":" prompt is open.
func (m *RunModel) updateGoto(msg tea.KeyMsg) tea.Cmd {
	ans, closed, cmd := m.jump.Update(msg, m.pl.Steps(), m.pl.End())
	if !closed {
		return cmd
	}
	m.jump = nil
	if ans == nil {
		if cmd == nil {
			m.setStatus(true, "cancelled")
		}
		return cmd
	}
	if ans.IsStep {
		m.pl.Seek(ans.Step)
	} else {
		m.pl.SeekTime(ans.At)
	}
	return m.seeked()
}

// gotoFooter is the footer line while the ":" prompt is open.
func (m *RunModel) gotoFooter(w int) string { return m.jump.Footer(m.c.st, tr("time or step"), w) }
