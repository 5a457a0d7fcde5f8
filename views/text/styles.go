package text

import "github.com/charmbracelet/lipgloss"

// Theme is the palette: adaptive colours, so light and dark terminals both
// read well. Colour is never the only signal: every coloured thing also has
// a symbol or a word.
type Theme struct {
	Accent, Muted, Good, Bad, Warn, Info lipgloss.AdaptiveColor
}

// DefaultTheme is the palette the TUI uses.
var DefaultTheme = Theme{
	Accent: lipgloss.AdaptiveColor{Light: "#5A3FC0", Dark: "#B7A6FF"},
	Muted:  lipgloss.AdaptiveColor{Light: "#767676", Dark: "#8A8A8A"},
	Good:   lipgloss.AdaptiveColor{Light: "#1E7B34", Dark: "#6BD68A"},
	Bad:    lipgloss.AdaptiveColor{Light: "#B00020", Dark: "#FF6B6B"},
	Warn:   lipgloss.AdaptiveColor{Light: "#9A5B00", Dark: "#F2C14E"},
	Info:   lipgloss.AdaptiveColor{Light: "#005F87", Dark: "#6CC4FF"},
}

// Styles are built once from a Theme; View only applies them.
type Styles struct {
	Title, Header, Muted, Good, Bad, Warn, Info, Focus, Selected, Changed, Key lipgloss.Style
}

// NewStyles builds the styles of t.
func NewStyles(t Theme) Styles {
	s := lipgloss.NewStyle()
	return Styles{
		Title:    s.Bold(true).Foreground(t.Accent),
		Header:   s.Bold(true),
		Muted:    s.Foreground(t.Muted),
		Good:     s.Foreground(t.Good),
		Bad:      s.Foreground(t.Bad).Bold(true),
		Warn:     s.Foreground(t.Warn),
		Info:     s.Foreground(t.Info),
		Focus:    s.Foreground(t.Accent).Bold(true),
		Selected: s.Reverse(true),
		Changed:  s.Reverse(true).Bold(true),
		Key:      s.Foreground(t.Accent),
	}
}
