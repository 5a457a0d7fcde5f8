package tracemsg

import (
	"strings"

	"github.com/lockstep-sim/lockstep/sim"
)

// The phrase format, {name:phrase}: the string argument name holds the ids
// of catalogue entries, space-separated (often one, or none), and each is
// rendered in the line's language from the line's own arguments, joined
// by phraseSep. It is how a line says one of several things without
// English in its arguments: the emitter chooses the phrase ("lease-until"
// or "lease-no-expiry"), each language's catalogue words it. An empty
// argument writes nothing.

// phraseSep is what the phrase format writes between two phrases of a
// list, per language.
var phraseSep = [nLangs]string{en: "; ", zh: "；"}

// phraseOK says, by catalogue index, which entries may be rendered as a
// phrase: those whose templates use no phrase format themselves, so that
// a phrase never recurses.
var phraseOK = func() []bool {
	ok := make([]bool, len(catalogue))
	for i := range catalogue {
		ok[i] = true
		for l := range nLangs {
			if strings.Contains(templates[l][i], ":phrase}") {
				ok[i] = false
			}
		}
	}
	return ok
}()

// phraseKeys are, by catalogue index, the arguments its English template
// renders with the phrase format (the zh one names the same,
// TestZHTemplatesMatchEnglish).
var phraseKeys = func() [][]string {
	keys := make([][]string, len(catalogue))
	for i, m := range catalogue {
		for t := m.Template; ; {
			end := strings.Index(t, ":phrase}")
			if end < 0 {
				break
			}
			keys[i] = append(keys[i], t[strings.LastIndexByte(t[:end], '{')+1:end])
			t = t[end+len(":phrase}"):]
		}
	}
	return keys
}()

// phrasesRender reports whether every phrase of entry i renders in l from
// args: each phrase argument is there, a string, and lists only ids that
// may be phrases and have a template in l. A trace recorded before a
// line's phrase arguments existed has none (or English text in their
// place), and is better shown in its English msg than with placeholders.
func phrasesRender(i int, args []sim.Arg, l lang) bool {
	for _, k := range phraseKeys[i] {
		a, ok := sim.Args(args).Get(k)
		if !ok || a.IsInt {
			return false
		}
		for _, id := range strings.Fields(a.Str) {
			j, ok := byID[id]
			if !ok || !phraseOK[j] || templates[l][j] == "" {
				return false
			}
		}
	}
	return true
}

// appendPhrases writes the phrases whose ids are in the space-separated
// list ids, in language l, from args. An unknown id, one that uses the
// phrase format itself, or one with no template in l, is written as "{id}".
func appendPhrases(dst []byte, ids string, args []sim.Arg, l lang) []byte {
	first := true
	for ids != "" {
		var id string
		id, ids, _ = strings.Cut(ids, " ")
		if id == "" {
			continue
		}
		if !first {
			dst = append(dst, phraseSep[l]...)
		}
		first = false
		i, ok := byID[id]
		if !ok || !phraseOK[i] || templates[l][i] == "" {
			dst = append(append(append(dst, '{'), id...), '}')
			continue
		}
		dst = appendTemplate(dst, templates[l][i], args, l, nil)
	}
	return dst
}
