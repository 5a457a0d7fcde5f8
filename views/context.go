package views

import (
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/lockstep-sim/lockstep/views/text"
)

// Minimum terminal size; below it the TUI says so instead of drawing.
const (
	MinWidth  = 60
	MinHeight = 16
)

// Play loop timing: a tick every frame; each advances the cursor by speed ×
// frame of simulated time.
const (
	frame        = 50 * time.Millisecond
	defaultSpeed = 2.0      // simulated seconds per wall second
	minSpeed     = 1.0 / 64 // 1/64 s per s
	maxSpeed     = 4096.0
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
