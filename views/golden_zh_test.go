package views

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// inZH renders the test in Simplified Chinese and, when it ends, checks
// that nothing it showed missed the catalogue.
func inZH(t *testing.T) {
	t.Helper()
	i18n.Missing()
	i18n.Set(i18n.ZH)
	t.Cleanup(func() {
		i18n.Set(i18n.EN)
		if m := i18n.Missing(); len(m) > 0 {
			t.Errorf("shown in zh but not in the catalogue: %q", m)
		}
	})
}

func TestGoldenZHRun80x24(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	inZH(t)
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, 80, 24, repeat("n", 31)...)
}

func TestGoldenZHRun120x36(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	inZH(t)
	runGolden(t, Config{Open: "gc-pause-lua-release"}, 120, 36, "g", "g")
}

func TestGoldenZHHelp80x24(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	inZH(t)
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, 80, 24, "?")
}

func TestGoldenZHPicker120x36(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	inZH(t)
	runGolden(t, Config{}, 120, 36, "down", "down")
}

// TestLayoutZHWidths: in zh, at every size, under a zh locale and under
// LANG=C, every screen has exactly h lines, each exactly w cells as
// ansi.StringWidth (the lipgloss measure, the policy of docs/tui.md)
// counts them, the text input counts ambiguous glyphs as one cell, and
// the columns inside the Clients panel and the picker line up.
func TestLayoutZHWidths(t *testing.T) {
	screens := map[string]struct {
		cfg  Config
		keys []string
	}{
		"picker":  {Config{}, []string{"down", "down", "down"}},
		"run":     {Config{Open: "gc-pause-wrong-delete"}, repeat("n", 31)},
		"help":    {Config{Open: "gc-pause-wrong-delete"}, []string{"?"}},
		"detail":  {Config{Open: "gc-pause-lua-release"}, []string{"g", "g", "v"}},
		"compare": {Config{Open: "gc-pause-wrong-delete", Compare: [2]string{"set-del", "lua-release"}}, repeat("n", 20)},
		"goto":    {Config{Open: "gc-pause-wrong-delete"}, []string{":", "1", "2", "│"}},
	}
	for _, locale := range []string{"zh_CN.UTF-8", "C"} {
		t.Setenv("LANG", locale)
		// What go-runewidth decides at start-up under this locale, then
		// the policy on top of it.
		runewidth.DefaultCondition.EastAsianWidth = strings.HasPrefix(locale, "zh")
		SetAmbiguousNarrow()
		if got := runewidth.StringWidth("│━…●"); got != 4 {
			t.Fatalf("LANG=%s: text input counts │━…● as %d cells, want 4", locale, got)
		}
		inZH(t)
		for _, sz := range [][2]int{{80, 24}, {120, 36}, {200, 60}} {
			for name, sc := range screens {
				m := newModel(t, bundled(t), sc.cfg, sz[0], sz[1])
				press(m, sc.keys...)
				lines := strings.Split(m.View(), "\n")
				if len(lines) != sz[1] {
					t.Errorf("LANG=%s %dx%d %s: %d lines", locale, sz[0], sz[1], name, len(lines))
				}
				checkColumns(t, fmt.Sprintf("LANG=%s %dx%d %s", locale, sz[0], sz[1], name), lines)
				for i, l := range lines {
					if w := ansi.StringWidth(l); w != sz[0] {
						t.Errorf("LANG=%s %dx%d %s line %d: %d cells: %q", locale, sz[0], sz[1], name, i, w, ansi.Strip(l))
					}
				}
			}
		}
	}
}

// checkColumns: the belief│truth bar of every client row, and the column
// after the picker's strategy (预期), start at one cell on every line that
// has them: a width counted in runes or bytes would shift the CJK rows.
func checkColumns(t *testing.T, where string, lines []string) {
	t.Helper()
	for _, mark := range []string{" │ key", "预期"} {
		col := -1
		for i, l := range lines {
			plain := ansi.Strip(l)
			at := strings.Index(plain, mark)
			if at < 0 {
				continue
			}
			if mark == "预期" { // the title column, after the expects column
				rest := plain[at+len(mark)+1:]
				tok := strings.IndexByte(rest, ' ')
				if tok < 0 {
					continue
				}
				at += len(mark) + 1 + tok + len(rest[tok:]) - len(strings.TrimLeft(rest[tok:], " "))
			}
			c := ansi.StringWidth(plain[:at])
			if col >= 0 && c != col {
				t.Errorf("%s line %d: %q at cell %d, other lines at %d", where, i, mark, c, col)
			}
			col = c
		}
	}
}

func TestGoldenZHPicker80x24(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	inZH(t)
	runGolden(t, Config{}, 80, 24, "down")
}

func TestGoldenZHHelp120x36(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	inZH(t)
	runGolden(t, Config{Open: "gc-pause-wrong-delete"}, 120, 36, "?")
}

func TestGoldenZHCompare120x36(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	inZH(t)
	runGolden(t, Config{Open: "gc-pause-wrong-delete", Compare: [2]string{"set-del", "lua-release"}}, 120, 36, repeat("n", 40)...)
}

func TestGoldenZHDetail80x24(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	inZH(t)
	runGolden(t, Config{Open: "gc-pause-lua-release"}, 80, 24, "g", "g", "v")
}
