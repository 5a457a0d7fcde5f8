package i18n

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// verb finds fmt verbs; compiled on first use (checks and zh rendering),
// not at every process's start.
var verb = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`%[-+# 0]*[0-9*]*(\.[0-9]+)?[a-zA-Z%]`) })

// LatinOnly are keys whose zh text may equal the en text: Redis
// commands, strategy names, units and symbols stay in Latin script.
var LatinOnly = map[string]bool{}

// Check returns a sentence per problem of a table: a key given twice, a
// blank zh text, a zh text equal to the English or without Chinese (unless
// LatinOnly), or fmt verbs that differ from the key's (the same verbs in
// the same order, since the zh text is filled with the key's arguments).
func Check(entries []Entry) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range entries {
		switch {
		case seen[e.id()]:
			out = append(out, fmt.Sprintf("key %q twice", e.id()))
		case strings.TrimSpace(e.ZH) == "":
			out = append(out, fmt.Sprintf("key %q: no zh text", e.Key))
		case LatinOnly[e.Key]:
		case e.ZH == e.Key:
			out = append(out, fmt.Sprintf("key %q: zh text is the English", e.Key))
		case !hasHan(e.ZH):
			out = append(out, fmt.Sprintf("key %q: zh %q has no Chinese", e.Key, e.ZH))
		}
		seen[e.id()] = true
		a := strings.Join(verb().FindAllString(e.Key, -1), " ")
		if b := strings.Join(verb().FindAllString(e.ZH, -1), " "); a != b {
			out = append(out, fmt.Sprintf("key %q: verbs %q, zh has %q", e.Key, a, b))
		}
		if e.One != "" && strings.Join(verb().FindAllString(e.One, -1), " ") != a {
			out = append(out, fmt.Sprintf("key %q: singular %q has other verbs", e.Key, e.One))
		}
	}
	return out
}

// hasHan reports whether s is written in Chinese: a Han character, or
// (for an entry that is only punctuation, like a question's "%s：")
// CJK or fullwidth punctuation.
func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) || (r >= 0x3000 && r <= 0x303f) || (r >= 0xff01 && r <= 0xff60) {
			return true
		}
	}
	return false
}
