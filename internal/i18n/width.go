package i18n

import "golang.org/x/text/width"

// Width is s's width in terminal cells, for text tables: East Asian wide
// and fullwidth runes are two cells, every other rune one. Ambiguous
// glyphs (— – ✓ …) are one cell in both languages, the policy of
// docs/tui.md, so an English table measures as its rune count.
func Width(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}
