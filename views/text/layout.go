// Package text lays out the TUI's screens as lines of an exact number of
// terminal cells: fitting, boxes, side by side, wrapping and reflowing
// (CJK included), the compact spellings of times and durations, and the
// styles. It knows nothing of scenarios or bubbletea: the panels
// (views/panels) and the screens (views) are built from it.
package text

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Panels are drawn as slices of lines of an exact display width, so the
// layout can add up widths and heights exactly and never emit more lines
// than the terminal has.

// Fit truncates or pads s (which may hold ANSI styling) to exactly w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := Width(s)
	if sw > w {
		// Only padding past w (a list pads its lines to its own idea of
		// the width): cut it without an ellipsis, nothing is lost.
		tail := "…"
		if strings.TrimSpace(ansi.Strip(ansi.Cut(s, w, sw))) == "" {
			tail = ""
		}
		s = ansi.Truncate(s, w, tail)
		sw = Width(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// FitLines makes lines exactly h lines of width w: cut or padded.
func FitLines(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = Fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}

// Box frames lines in a w×h border with a title. A focused box has a heavy
// border and a ▸ before its title, so focus shows without colour too.
func Box(st Styles, title string, lines []string, w, h int, focused bool) []string {
	if w < 4 || h < 2 {
		return FitLines(nil, w, h)
	}
	tl, tr, bl, br, hz, vt := "┌", "┐", "└", "┘", "─", "│"
	if focused {
		tl, tr, bl, br, hz, vt = "┏", "┓", "┗", "┛", "━", "┃"
		title = "▸" + title
	}
	t := " " + title + " "
	if ansi.StringWidth(t) > w-4 {
		t = ansi.Truncate(t, w-4, "…")
	}
	ts := st.Header.Render(t)
	if focused {
		ts = st.Focus.Render(t)
	}
	top := tl + hz + ts + strings.Repeat(hz, max(0, w-3-ansi.StringWidth(t))) + tr
	out := make([]string, 0, h)
	out = append(out, top)
	for _, l := range FitLines(lines, w-2, h-2) {
		out = append(out, vt+l+vt)
	}
	out = append(out, bl+strings.Repeat(hz, w-2)+br)
	return out
}

// HJoin puts blocks side by side; each must have lines of its own fixed width.
func HJoin(blocks ...[]string) []string {
	h := 0
	for _, b := range blocks {
		h = max(h, len(b))
	}
	out := make([]string, h)
	for _, b := range blocks {
		w := 0
		if len(b) > 0 {
			w = ansi.StringWidth(b[0])
		}
		for i := 0; i < h; i++ {
			if i < len(b) {
				out[i] += b[i]
			} else {
				out[i] += strings.Repeat(" ", w)
			}
		}
	}
	return out
}

// Render joins lines, never more than h of them.
func Render(lines []string, h int) string {
	if len(lines) > h {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}

// TooSmall is the whole screen when the terminal is below the minimum.
func TooSmall(w, h, minW, minH int) string {
	msg := []string{
		"terminal too small",
		"",
		"lockstep needs at least",
		itoa(minW) + "×" + itoa(minH) + ";",
		"this one is " + itoa(w) + "×" + itoa(h) + ".",
		"Enlarge it, or q to quit.",
	}
	lines := make([]string, 0, len(msg))
	for _, m := range msg {
		lines = append(lines, Fit(m, w))
	}
	return Render(lines, h)
}

// Width is ansi.StringWidth(s), counted directly when s is printable ASCII
// and SGR-style CSI sequences only (most of a frame's lines): fit measures
// every line of every panel each frame, and segmenting graphemes is the
// bulk of a frame's cost. Anything else goes to ansi.StringWidth.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x20 && c < 0x7f:
			n++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
				j++
			}
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
				j++
			}
			if j >= len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return ansi.StringWidth(s)
			}
			i = j
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r >= narrowLo && r < narrowHi && narrowTable()[r-narrowLo] {
				n++
				i += size - 1
				continue
			}
			return ansi.StringWidth(s)
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// narrowTable marks the runes from narrowLo to narrowHi that width counts as one
// column: those ansi.StringWidth measures as one, alone and between letters,
// in the ranges the views draw with (Latin-1, punctuation, arrows, box
// drawing, blocks, shapes, dingbats). None of them joins a neighbour into
// one grapheme, and a rune outside the table sends the line to
// ansi.StringWidth, so a combining mark after one of them is still right.
var narrowTable = sync.OnceValue(func() *[narrowHi - narrowLo]bool {
	// Built on first use, not at start: a headless run never asks, and the
	// 4,000 width questions were a tenth of every process's start.
	var t [narrowHi - narrowLo]bool
	for _, r := range [][2]rune{{0xa0, 0x2ff}, {0x2010, 0x2027}, {0x2190, 0x21ff}, {0x2500, 0x25ff}, {0x2700, 0x27bf}} {
		for c := r[0]; c <= r[1]; c++ {
			t[c-narrowLo] = ansi.StringWidth(string(c)) == 1 && ansi.StringWidth("a"+string(c)+"b") == 3
		}
	}
	return &t
})

const narrowLo, narrowHi = 0xa0, 0x27c0
