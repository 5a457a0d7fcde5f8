package views

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/lockstep-sim/lockstep/views/text"
)

// Minimum terminal size; below it the TUI says so instead of drawing.
const (
	MinWidth  = 60
	MinHeight = 16
)

// ctx is what every screen shares: size, styles, keys, help, where files go.
type ctx struct {
	w, h   int
	st     text.Styles
	keys   KeyMap
	help   help.Model
	outDir string
}

func newCtx(outDir string) *ctx {
	st := text.NewStyles(text.DefaultTheme)
	h := help.New()
	h.Styles.ShortKey = st.Key
	h.Styles.FullKey = st.Key
	h.Styles.ShortDesc = st.Muted
	h.Styles.FullDesc = st.Muted
	if outDir == "" {
		outDir = "."
	}
	return &ctx{st: st, keys: DefaultKeys(), help: h, outDir: outDir}
}
