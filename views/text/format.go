package text

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
	"golang.org/x/text/width"
)

// Reflow rewraps hard-wrapped text (a story) to width w, keeping paragraphs.
func Reflow(text string, w int) []string {
	var out []string
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, Wrap(joinLines(para), w)...)
	}
	return out
}

// joinLines joins a paragraph's lines as its language reads them: a break
// between two wide (CJK) characters, or next to fullwidth punctuation, is no
// space, as a zh story breaks its lines mid-sentence; any other break (an
// English one, or CJK beside a Latin word) is one space.
func joinLines(para string) string {
	lines := strings.Split(para, "\n")
	var b strings.Builder
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if i > 0 && l != "" && b.Len() > 0 {
			prev, _ := utf8.DecodeLastRuneInString(b.String())
			next, _ := utf8.DecodeRuneInString(l)
			if !(wideRune(prev) && wideRune(next)) && !cjkPunct(prev) && !cjkPunct(next) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// wideRune reports whether r takes two cells (CJK ideographs, kana, hangul,
// fullwidth punctuation such as ，。：（）).
// It asks the rune's East Asian width (x/text, no allocation): it runs for
// every rune a frame wraps, and string(r) into ansi.StringWidth allocated.
func wideRune(r rune) bool {
	if r < utf8.RuneSelf {
		return false
	}
	k := width.LookupRune(r).Kind()
	return k == width.EastAsianWide || k == width.EastAsianFullwidth
}

// hasWide reports whether s has a wide rune; ASCII text is decided by its
// bytes alone.
func hasWide(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.ContainsFunc(s[i:], wideRune)
		}
	}
	return false
}

// cjkPunct reports whether r is fullwidth punctuation, which takes no space
// beside it in Chinese text.
func cjkPunct(r rune) bool {
	return strings.ContainsRune("，。：；！？、（）《》「」『』", r)
}

// Wrap fills lines of at most w cells with the words of s (plain text, no
// styling). Latin text breaks only at spaces: unlike ansi.Wordwrap it never
// breaks at a hyphen, so "redis-1" stays whole. Chinese has no spaces, so a
// run of CJK text may also break where Unicode's line-breaking rules allow
// one next to a wide character (UAX #14, by uniseg): between two ideographs,
// after "，" but never before it, never after "（". A word longer than a
// line is split.
func Wrap(s string, w int) []string {
	w = max(w, 2) // room for one wide rune
	var f filler
	f.w = w
	for _, word := range strings.Fields(s) {
		if !hasWide(word) {
			f.add(word, false)
			continue
		}
		f.addCJK(word)
	}
	if f.lw > 0 || len(f.out) == 0 {
		f.flush()
	}
	return f.out
}

// filler is wrap's state: the lines so far and the one being filled.
type filler struct {
	w, lw int
	line  strings.Builder
	out   []string
}

func (f *filler) flush() {
	f.out = append(f.out, f.line.String())
	f.line.Reset()
	f.lw = 0
}

// add puts piece on the line, after a space unless glued (a piece of the
// same word, cut at a CJK break opportunity), or on the next line.
func (f *filler) add(piece string, glued bool) {
	pw := ansi.StringWidth(piece)
	sep := 1
	if glued {
		sep = 0
	}
	if f.lw > 0 && f.lw+sep+pw > f.w {
		f.flush()
	}
	if f.lw > 0 && sep == 1 {
		f.line.WriteByte(' ')
		f.lw++
	}
	if pw <= f.w-f.lw {
		f.line.WriteString(piece)
		f.lw += pw
		return
	}
	for _, r := range piece { // wider than a line: split it
		rw := ansi.StringWidth(string(r))
		if f.lw+rw > f.w {
			f.flush()
		}
		f.line.WriteRune(r)
		f.lw += rw
	}
}

// addCJK adds a word (no spaces) that has wide characters, cut at the
// line-break opportunities that touch one: its pieces are glued to each
// other, the first follows the line's last word after a space.
func (f *filler) addCJK(word string) {
	start, state, glued := 0, -1, false
	for rest := word; rest != ""; {
		var seg string
		seg, rest, _, state = uniseg.FirstLineSegmentInString(rest, state)
		if rest == "" {
			break
		}
		end := len(word) - len(rest)
		last, _ := utf8.DecodeLastRuneInString(seg)
		next, _ := utf8.DecodeRuneInString(rest)
		if wideRune(last) || wideRune(next) {
			f.add(word[start:end], glued)
			start, glued = end, true
		}
	}
	f.add(word[start:], glued)
}

func itoa(v int) string { return strconv.Itoa(v) }

// WrapIndent wraps s to w columns, the lines after the first indented by
// indent spaces.
func WrapIndent(s string, w, indent int) []string {
	if w <= indent+8 {
		return []string{s}
	}
	lines := Wrap(s, w)
	out := lines[:1]
	if len(lines) > 1 {
		pad := strings.Repeat(" ", indent)
		for _, l := range Wrap(strings.Join(lines[1:], " "), w-indent) {
			out = append(out, pad+l)
		}
	}
	return out
}

// Pad pads s with spaces to w terminal cells (a CJK rune is two).
func Pad(s string, w int) string {
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

// Secs renders a true or clock time as "31.002s".
func Secs(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) + "s"
}

// Short renders a duration compactly for narrow columns: "30s", "1.5s", "250ms".
func Short(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	var s string
	switch {
	case d == 0:
		s = "0s"
	case d >= time.Hour:
		s = strconv.FormatFloat(d.Hours(), 'f', 1, 64) + "h"
	case d >= 100*time.Second:
		s = strconv.FormatFloat(d.Seconds(), 'f', 0, 64) + "s"
	case d >= time.Second:
		s = strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(d.Seconds(), 'f', 1, 64), "0"), ".") + "s"
	default:
		s = strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	if neg {
		return "-" + s
	}
	return s
}

// Signed renders an offset with its sign: "+20s", "-1.5s", "±0".
func Signed(d time.Duration) string {
	if d == 0 {
		return "±0"
	}
	if d > 0 {
		return "+" + Short(d)
	}
	return Short(d)
}

// Bar draws frac (0..1) of width w as a bar of █ and ░.
func Bar(frac float64, w int) string {
	if w <= 0 {
		return ""
	}
	frac = max(0, min(frac, 1))
	n := int(frac*float64(w) + 0.5)
	return strings.Repeat("█", n) + strings.Repeat("░", w-n)
}

// SpeedLabel renders simulated seconds per wall second: "2×", "1/4×".
func SpeedLabel(s float64) string {
	if s >= 1 {
		return strconv.FormatFloat(s, 'f', -1, 64) + "×"
	}
	return "1/" + strconv.FormatFloat(1/s, 'f', -1, 64) + "×"
}
