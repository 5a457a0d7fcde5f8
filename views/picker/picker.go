// Package picker is the TUI's first screen: the scenarios of a file in a
// list (bubbles' list, filtered by substring), and the highlighted one's
// title and story beside it on a wide terminal. Its state is the list's
// alone; the app (views.Model) routes keys to it and opens what it
// selects.
package picker

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/views/text"
)

// item is one scenario in the picker. Every text it shows is the user's
// and is escaped: a title may hold control characters.
type item struct {
	s     *scenario.Scenario
	cols  *[2]int // widths of the strategy and expects columns, shared by every item
	title string  // termtext-escaped
}

func newItem(s *scenario.Scenario, cols *[2]int) item {
	return item{s: s, cols: cols, title: termtext.Escape(s.TitleIn(lang()))}
}

func (i item) Title() string { return termtext.Escape(i.s.Name) }
func (i item) Description() string {
	return fmt.Sprintf("%-*s %s %s", i.cols[0], termtext.Escape(scenario.StrategyLabel(i.s.Lock.Strategy, i.s.Lock.Client)), text.Pad(expected(i.s), i.cols[1]), i.title)
}

// FilterValue starts with the name, so the filter's match positions inside
// it are the ones the list highlights in the title.
func (i item) FilterValue() string {
	return termtext.Escape(i.s.Name) + " " + i.title + " " + termtext.Escape(scenario.StrategyLabel(i.s.Lock.Strategy, i.s.Lock.Client))
}

// expected is the verdict a scenario's expect: block predicts.
func expected(s *scenario.Scenario) string {
	v := tr("expects ?")
	for _, e := range s.Expect {
		switch {
		case e.Metric == model.MetricSafe && e.Value == 1:
			v = tr("expects SAFE")
		case e.Metric == model.MetricSafe:
			v = tr("expects UNSAFE")
		}
	}
	for _, e := range s.Expect {
		if e.Metric == model.MetricStuck && e.Value == 1 {
			v += "+STUCK"
		}
	}
	return v
}

// substringFilter keeps the items whose filter value holds term, ignoring
// case, in the file's order: /redlock finds the scenarios that say Redlock,
// not every one whose letters happen to spell it in order (the list's
// default fuzzy match).
func substringFilter(term string, targets []string) []list.Rank {
	term = strings.ToLower(strings.TrimSpace(term))
	var out []list.Rank
	for i, t := range targets {
		at := strings.Index(strings.ToLower(t), term)
		if at < 0 {
			continue
		}
		// The list highlights rune positions of the title (the name).
		from := utf8.RuneCountInString(t[:at])
		idx := make([]int, utf8.RuneCountInString(term))
		for k := range idx {
			idx[k] = from + k
		}
		out = append(out, list.Rank{Index: i, MatchedIndexes: idx})
	}
	return out
}

// Model lists the file's scenarios; / filters, enter opens.
type Model struct {
	st   text.Styles
	list list.Model
}

// New is the picker of f's scenarios, drawn with st.
func New(st text.Styles, f *scenario.File) Model {
	cols := &[2]int{}
	items := make([]list.Item, len(f.Scenarios))
	for i, s := range f.Scenarios {
		items[i] = newItem(s, cols)
		cols[0] = max(cols[0], len(termtext.Escape(scenario.StrategyLabel(s.Lock.Strategy, s.Lock.Client))))
		cols[1] = max(cols[1], ansi.StringWidth(expected(s)))
	}
	d := list.NewDefaultDelegate()
	l := list.New(items, d, 0, 0)
	l.Title = fmt.Sprintf(tr("lockstep — %s in %s: enter opens, / filters"), scenarios(len(items)), termtext.Escape(f.Path))
	l.Filter = substringFilter
	translateList(&l)
	l.SetShowStatusBar(true)
	l.DisableQuitKeybindings() // q and ctrl+c are the app's
	return Model{st: st, list: l}
}

// scenarios is "1 scenario", "2 scenarios" (the catalogue's plural rules).
func scenarios(n int) string { return tr("%d scenarios", n) }

// SetSize gives the picker the terminal's size (the list takes part of a
// wide one, the story the rest).
func (p *Model) SetSize(w, h int) {
	lw := w
	if w >= 110 {
		lw = w * 11 / 20
	}
	p.list.SetSize(lw, h)
}

// Selected is the highlighted scenario, or nil.
func (p *Model) Selected() *scenario.Scenario {
	if it, ok := p.list.SelectedItem().(item); ok {
		return it.s
	}
	return nil
}

// FirstMatch is the first scenario the filter being typed matches, or nil.
// It is worked out here rather than read from the list, whose matches
// arrive later as a message: enter typed right after the filter must open
// what the filter says.
func (p *Model) FirstMatch() *scenario.Scenario {
	items := p.list.Items()
	targets := make([]string, len(items))
	for i, it := range items {
		targets[i] = it.FilterValue()
	}
	if r := substringFilter(p.list.FilterValue(), targets); len(r) > 0 {
		return items[r[0].Index].(item).s
	}
	return nil
}

// Update hands msg to the list.
func (p *Model) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(msg)
	return cmd
}

// View draws the picker in w×h.
func (p *Model) View(w, h int) string {
	lv := p.list.View()
	lines := strings.Split(lv, "\n")
	if w < 110 {
		return text.Render(text.FitLines(lines, w, h), h)
	}
	lw := w * 11 / 20
	left := text.FitLines(lines, lw, h)
	var story []string
	if s := p.Selected(); s != nil {
		for _, l := range text.Wrap(termtext.Escape(s.TitleIn(lang())), w-lw-2) {
			story = append(story, p.st.Header.Render(l))
		}
		story = append(story, "")
		story = append(story, text.Reflow(termtext.EscapeKeepLines(s.StoryIn(lang())), w-lw-3)...)
	}
	right := text.Box(p.st, tr("Story"), story, w-lw, h, false)
	return text.Render(text.HJoin(left, right), h)
}

// Filtering reports whether the filter input has the keys.
func (p *Model) Filtering() bool { return p.list.FilterState() == list.Filtering }

// FilterValue is the filter as typed so far.
func (p *Model) FilterValue() string { return p.list.FilterValue() }

// translateList puts the list bubble's own chrome through the catalogue:
// its key help, the filter prompt and the status bar's item names. In
// English each text is the bubble's default, unchanged.
func translateList(l *list.Model) {
	k := &l.KeyMap
	for _, b := range []*key.Binding{&k.CursorUp, &k.CursorDown, &k.PrevPage, &k.NextPage, &k.GoToStart, &k.GoToEnd,
		&k.Filter, &k.ClearFilter, &k.CancelWhileFiltering, &k.AcceptWhileFiltering, &k.ShowFullHelp, &k.CloseFullHelp, &k.Quit} {
		b.SetHelp(b.Help().Key, tr(b.Help().Desc))
	}
	l.FilterInput.Prompt = tr("Filter: ")
	l.SetStatusBarItemName(tr("item"), tr("items"))
}

// tr renders the picker's chrome in the current language (internal/i18n).
func tr(format string, args ...any) string { return i18n.T(format, args...) }

// lang is the current language as the scenario's per-language texts name it.
func lang() string { return string(i18n.Current()) }
