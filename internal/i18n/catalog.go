package i18n

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

// The catalogue is a golang.org/x/text catalog.Builder keyed, as x/text
// keys them, by the English format string. Every entry is set for both
// languages (en to itself), so a lookup that misses is a key nobody
// translated, which Missing reports. Lookup goes through the library
// (language matching, fallback to English, plural selection); the chosen
// format string is then filled in by fmt.Sprintf, not by message.Printer,
// because the printer groups digits ("12,345") and the English rendering
// must stay byte-identical to what lockstep printed before it was
// translated.

var (
	built atomic.Bool // a catalogue or the key set exists: Register is too late
	tags  = map[Lang]language.Tag{EN: language.English, ZH: language.SimplifiedChinese}

	// English needs the library only for its plural forms: every other
	// English text is its own key. So an English run builds a catalogue of
	// the plural entries alone, and the whole one (both languages, ~7,700
	// allocations, half a millisecond of every process's start) is built
	// the first time a message is rendered in Chinese.
	enCat = sync.OnceValue(func() *catalog.Builder { return build(func(e Entry) bool { return e.One != "" }) })
	zhCat = sync.OnceValue(func() *catalog.Builder { return build(func(Entry) bool { return true }) })

	// keys maps every entry's id to its English (the key past any
	// context), for Has; English rendering never needs the whole set.
	keys = sync.OnceValue(func() map[string]string {
		built.Store(true)
		m := map[string]string{}
		for _, e := range entries() {
			m[e.id()] = e.Key
		}
		return m
	})

	// plurals holds the entries with an English singular, by id: the only
	// English texts that are not their own key. An English run reads the
	// tables in place for them (a handful) instead of building the whole
	// key set and a catalogue: those were ~0.36 ms of every `lockstep run`
	// process, spent on its first message.
	plurals = sync.OnceValue(func() map[string]Entry {
		built.Store(true)
		m := map[string]Entry{}
		for _, t := range tables() {
			for _, e := range t {
				if e.One != "" {
					m[e.id()] = e
				}
			}
		}
		return m
	})
)

// build makes a catalogue of the entries keep selects, from the tables in
// zh*.go: each set for both languages (en to itself, with its plural
// forms), so that a lookup that misses is a key nobody translated.
func build(keep func(Entry) bool) *catalog.Builder {
	built.Store(true)
	cat := catalog.NewBuilder(catalog.Fallback(language.English))
	for _, e := range entries() {
		if !keep(e) {
			continue
		}
		if e.One != "" {
			mustSet(cat.Set(language.English, e.id(),
				plural.Selectf(1, "%d", plural.One, e.One, plural.Other, e.Key)))
		} else {
			mustSet(cat.SetString(language.English, e.id(), e.Key))
		}
		mustSet(cat.SetString(language.SimplifiedChinese, e.id(), e.ZH))
	}
	return cat
}

func mustSet(err error) {
	if err != nil { // the tables are code: a bad entry is a programming error
		panic(err)
	}
}

// recorder is a catalogue renderer that keeps the format string the
// catalogue chose instead of printing it.
type recorder struct {
	out  string
	args []any
}

func (r *recorder) Render(s string) { r.out += s }

// Arg gives plural selectors their argument (1-based, as x/text counts).
func (r *recorder) Arg(i int) any {
	if i < 1 || i > len(r.args) {
		return nil
	}
	return r.args[i-1]
}

// lookup returns key's format string in l, and whether the catalogue had
// it. In English every text is its own translation (the key past any
// context), so an English lookup is always true; only an entry with a
// singular chooses, by englishOne or, for a count of another type, the
// library.
func lookup(l Lang, key string, args []any) (string, bool) {
	cat := zhCat
	if l == EN {
		e, plural := plurals()[key]
		if !plural {
			if i := strings.IndexByte(key, '\x04'); i >= 0 {
				return key[i+1:], true
			}
			return key, true
		}
		if one, ok := englishOne(args); ok {
			if one {
				return e.One, true
			}
			return e.Key, true
		}
		cat = enCat
	}
	r := &recorder{args: args}
	if err := cat().Context(tags[l], r).Execute(key); err != nil {
		return key, false
	}
	return r.out, true
}

// englishOne is CLDR's English rule for a plural entry's count, its first
// argument (the catalogue's plural.Selectf(1, "%d", ...)): the singular
// for 1 and -1, the plural for every other integer; ok is false for a
// count of another type, which the library then judges.
// TestEnglishPluralMatchesLibrary holds it to x/text's choice.
func englishOne(args []any) (one, ok bool) {
	if len(args) == 0 {
		return false, false
	}
	switch n := args[0].(type) {
	case int:
		return n == 1 || n == -1, true
	case int64:
		return n == 1 || n == -1, true
	case uint64:
		return n == 1, true
	}
	return false, false
}

var (
	missingMu sync.Mutex
	missing   = map[string]bool{}
)

// Sprintf renders format in l: the catalogue's translation of format,
// filled with args by fmt.Sprintf. A format the catalogue lacks renders
// as itself (English) and is recorded for Missing.
func (l Lang) Sprintf(format string, args ...any) string {
	f, ok := lookup(l, format, args)
	if !ok && l != EN {
		missingMu.Lock()
		missing[format] = true
		missingMu.Unlock()
	}
	if len(args) == 0 {
		return f
	}
	return fmt.Sprintf(f, args...)
}

// TC renders format in the current language in context ctx: the entry
// whose Ctx is ctx (see Entry.Ctx). A missing one renders as format.
func TC(ctx, format string, args ...any) string {
	l := Current()
	f, ok := lookup(l, ctx+"\x04"+format, args)
	if !ok {
		f = format
		if l != EN {
			missingMu.Lock()
			missing[ctx+": "+format] = true
			missingMu.Unlock()
		}
	}
	if len(args) == 0 {
		return f
	}
	return fmt.Sprintf(f, args...)
}

// T renders format in the current language (see Sprintf).
func T(format string, args ...any) string { return Current().Sprintf(format, args...) }

// Has reports whether the catalogue holds key.
func Has(key string) bool {
	_, ok := keys()[key]
	return ok
}

// Missing returns (and forgets) every key rendered in a language other
// than English that the catalogue lacks, for tests that prove a screen is
// fully translated.
func Missing() []string {
	missingMu.Lock()
	defer missingMu.Unlock()
	out := make([]string, 0, len(missing))
	for k := range missing {
		out = append(out, k)
	}
	missing = map[string]bool{}
	return out
}
