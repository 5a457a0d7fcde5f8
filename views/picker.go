package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/lockstep-sim/lockstep/scenario"
)

// item is one scenario in the picker.
type item struct{ s *scenario.Scenario }

func (i item) Title() string { return i.s.Name }
func (i item) Description() string {
	return fmt.Sprintf("%-12s %-16s %s", i.s.Lock.Strategy, expected(i.s), i.s.Title)
}
func (i item) FilterValue() string { return i.s.Name + " " + i.s.Title + " " + i.s.Lock.Strategy }

// expected is the verdict a scenario's expect: block predicts.
func expected(s *scenario.Scenario) string {
	v := "expects ?"
	for _, e := range s.Expect {
		switch {
		case e.Metric == "safe" && e.Value == 1:
			v = "expects SAFE"
		case e.Metric == "safe":
			v = "expects UNSAFE"
		}
	}
	for _, e := range s.Expect {
		if e.Metric == "stuck" && e.Value == 1 {
			v += "+STUCK"
		}
	}
	return v
}

// pickerModel lists the file's scenarios; / filters, enter opens.
type pickerModel struct {
	c    *ctx
	list list.Model
}

func newPicker(c *ctx, f *scenario.File) pickerModel {
	items := make([]list.Item, len(f.Scenarios))
	for i, s := range f.Scenarios {
		items[i] = item{s}
	}
	d := list.NewDefaultDelegate()
	l := list.New(items, d, 0, 0)
	l.Title = fmt.Sprintf("lockstep — %d scenarios in %s: enter opens, / filters", len(items), f.Path)
	l.SetShowStatusBar(true)
	l.DisableQuitKeybindings() // q and ctrl+c are the app's
	return pickerModel{c: c, list: l}
}

func (p *pickerModel) setSize(w, h int) {
	lw := w
	if w >= 110 {
		lw = w * 11 / 20
	}
	p.list.SetSize(lw, h)
}

// selected is the highlighted scenario, or nil.
func (p *pickerModel) selected() *scenario.Scenario {
	if it, ok := p.list.SelectedItem().(item); ok {
		return it.s
	}
	return nil
}

func (p *pickerModel) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(msg)
	return cmd
}

func (p *pickerModel) view(w, h int) string {
	lv := p.list.View()
	lines := strings.Split(lv, "\n")
	if w < 110 {
		return render(fitLines(lines, w, h), h)
	}
	lw := w * 11 / 20
	left := fitLines(lines, lw, h)
	var story []string
	if s := p.selected(); s != nil {
		story = append(story, p.c.st.Header.Render(s.Title), "")
		story = append(story, reflow(s.Story, w-lw-3)...)
	}
	right := box(p.c.st, "Story", story, w-lw, h, false)
	return render(hjoin(left, right), h)
}

// filtering reports whether the filter input has the keys.
func (p *pickerModel) filtering() bool { return p.list.FilterState() == list.Filtering }
