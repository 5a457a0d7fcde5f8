package views

import (
	"errors"

	"github.com/mattn/go-runewidth"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// tr renders a piece of the TUI's chrome in the current language through
// the catalogue (internal/i18n). The English text is the key, so the
// English screens are exactly what they were before translation.
func tr(format string, args ...any) string { return i18n.T(format, args...) }

// lang is the current language as the scenario's per-language texts name it.
func lang() string { return string(i18n.Current()) }

// Ambiguous-width policy (docs/tui.md): every East Asian Ambiguous glyph
// (│ ━ … ● ✓ ▸ …) is one cell, in every language and under every locale.
// lipgloss and charmbracelet/x/ansi already count them so; go-runewidth,
// which bubbles' text input uses, counts them as two when the locale is
// East Asian (LANG=zh_CN.UTF-8). Setting its default condition here keeps
// the prompt's cursor where lipgloss draws it. Terminals that draw them
// two cells wide need their "ambiguous width: narrow" setting.
func init() { SetAmbiguousNarrow() }

// SetAmbiguousNarrow applies the policy to go-runewidth's default
// condition; it is idempotent and exported for tests that change the locale.
func SetAmbiguousNarrow() {
	if !runewidth.DefaultCondition.EastAsianWidth && !runewidth.EastAsianWidth {
		return
	}
	// A fresh condition: the old one may hold a lookup table built for
	// two-cell ambiguous glyphs.
	runewidth.EastAsianWidth = false
	runewidth.DefaultCondition = runewidth.NewCondition()
}

// refusal is a fault spec's Refuse sentence (a fixed English text, the
// catalogue's key) in the TUI's language.
func refusal(why string) string { return i18n.M(why).In(i18n.Current()) }

// errText is err in the TUI's language when it can say itself in one (a
// scenario's check, a design refused), else its English text.
func errText(err error) string {
	var le interface{ ErrorIn(i18n.Lang) string }
	if errors.As(err, &le) {
		return le.ErrorIn(i18n.Current())
	}
	return err.Error()
}
