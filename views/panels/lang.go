package panels

import "github.com/lockstep-sim/lockstep/internal/i18n"

// tr renders a panel's chrome in the current language through the
// catalogue (internal/i18n); the English text is the key, as in views.
func tr(format string, args ...any) string { return i18n.T(format, args...) }

// lang is the current language as the scenario's per-language texts name it.
func lang() string { return string(i18n.Current()) }
