package i18n

import (
	"fmt"
	"io"
	"strings"
)

// WriteTable left-aligns rows in columns two spaces apart, the last column
// as it is, measuring in terminal cells (Width): text/tabwriter counts
// runes, so a Chinese label (two cells a character) would skew its
// column. Trailing spaces are trimmed. The text reports of compare and
// explore share it.
func WriteTable(w io.Writer, rows [][]string) {
	var width []int
	for _, r := range rows {
		for i, cell := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], Width(cell))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, cell := range r {
			b.WriteString(cell)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-Width(cell)+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
