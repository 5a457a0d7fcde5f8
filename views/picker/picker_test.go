package picker

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/list"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/views/text"
)

// bundled loads views' frozen copy of the bundled scenarios.
func bundled(t testing.TB) *scenario.File {
	t.Helper()
	f, err := scenario.LoadFile("../testdata/scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The picker's filter is a plain substring match: /redlock finds what says
// redlock, not reentrant-nested (whose letters spell it in order).
func TestPickerFilterSubstring(t *testing.T) {
	f, err := scenario.LoadFile("../../scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := New(text.NewStyles(text.DefaultTheme), f)
	var targets []string
	idx := -1
	for i, it := range p.list.Items() {
		targets = append(targets, it.FilterValue())
		if it.(item).s.Name == "reentrant-nested" {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatal("no reentrant-nested in the bundled file")
	}
	has := func(rs []list.Rank, i int) bool {
		for _, r := range rs {
			if r.Index == i {
				return true
			}
		}
		return false
	}
	if !has(list.DefaultFilter("redlock", targets), idx) {
		t.Fatal("the fuzzy filter no longer matches reentrant-nested: this test proves nothing")
	}
	got := substringFilter("redlock", targets)
	if has(got, idx) || len(got) == 0 {
		t.Fatalf("/redlock matched %d scenarios, reentrant-nested among them: %v", len(got), has(got, idx))
	}
	for _, r := range got {
		if !strings.Contains(strings.ToLower(targets[r.Index]), "redlock") {
			t.Errorf("%q does not say redlock", targets[r.Index])
		}
	}
	if got := substringFilter("REDLOCK", targets); len(got) != len(substringFilter("redlock", targets)) {
		t.Error("the filter should ignore case")
	}
	// The list itself filters so.
	p.list.SetFilterText("redlock")
	if vis := p.list.VisibleItems(); len(vis) != len(got) {
		t.Fatalf("the list shows %d for /redlock, the substring filter %d", len(vis), len(got))
	}
}

// The picker's columns line up: "expects SAFE+STUCK" does not push the
// title out of its column.
func TestPickerColumnsAlign(t *testing.T) {
	p := New(text.NewStyles(text.DefaultTheme), bundled(t))
	at, stuck := -1, false
	for _, it := range p.list.Items() {
		i := it.(item)
		d := i.Description()
		col := strings.Index(d, i.title)
		if at >= 0 && col != at {
			t.Fatalf("%s: title at column %d, others at %d: %q", i.s.Name, col, at, d)
		}
		at = col
		stuck = stuck || strings.Contains(d, "SAFE+STUCK")
	}
	if !stuck {
		t.Fatal("no SAFE+STUCK scenario: the test proves nothing")
	}
}

// The picker counts in English: "1 scenario", "15 scenarios".
func TestPickerTitleCount(t *testing.T) {
	f := bundled(t)
	if p := New(text.NewStyles(text.DefaultTheme), f); !strings.Contains(p.list.Title, "15 scenarios in") {
		t.Errorf("title %q", p.list.Title)
	}
	one := &scenario.File{Path: "one.yaml", Scenarios: f.Scenarios[:1]}
	if p := New(text.NewStyles(text.DefaultTheme), one); !strings.Contains(p.list.Title, "1 scenario in") {
		t.Errorf("title %q", p.list.Title)
	}
}
