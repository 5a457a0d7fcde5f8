package tracemsg

import (
	"strings"
	"sync"

	"github.com/lockstep-sim/lockstep/sim"
)

// listSep is what the msg format writes between two pieces of one list
// ("tally-ok tally-taken"), per language.
var listSep = [nLangs]string{en: "; ", zh: "；"}

// pieceKeys are, by catalogue index, the arguments its English template
// renders with the msg format (the zh one names the same,
// TestZHTemplatesMatchEnglish), made on first use: only a text in another
// language than the trace's own asks (piecesRender).
var pieceKeys = sync.OnceValue(func() [][]string {
	keys := make([][]string, len(catalogue))
	for i, m := range catalogue {
		for t := m.Template; ; {
			end := strings.Index(t, ":msg}")
			if end < 0 {
				break
			}
			keys[i] = append(keys[i], t[strings.LastIndexByte(t[:end], '{')+1:end])
			t = t[end+len(":msg}"):]
		}
	}
	return keys
})

// piecesRender reports whether every piece of entry i renders in l from
// args: each msg argument is there, a string, and lists only ids that have
// a template in l. A trace recorded before a line's piece arguments
// existed has none (or English text in their place), and is better shown
// in its English msg than with placeholders.
func piecesRender(i int, args []sim.Arg, l lang) bool {
	for _, k := range pieceKeys()[i] {
		a, ok := sim.Args(args).Get(k)
		if !ok || a.IsInt {
			return false
		}
		for _, id := range strings.Fields(a.Str) {
			j, ok := byID()[id]
			if !ok || template(l, j) == "" {
				return false
			}
		}
	}
	return true
}
