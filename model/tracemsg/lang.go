package tracemsg

import (
	"sync"

	"github.com/lockstep-sim/lockstep/sim"
)

// lang is a catalogue language: en (the trace's own text) or zh.
type lang int

const (
	en lang = iota
	zh
	nLangs
)

// Languages are the language codes RenderIn takes, in lang order.
var Languages = []string{"en", "zh"}

// untilWords are the words of the "until" format, per language.
var untilWords = [nLangs]struct{ until, forGood string }{
	en: {"until ", "for good (a crash without restart_after)"},
	zh: {"直到 ", "永久（崩溃且没有 restart_after）"},
}

// template is language l's template of catalogue entry i; "" where the
// id is not rendered from its arguments. English is the catalogue's own;
// zh is made on first use (zhTable).
func template(l lang, i int) string {
	if l == en {
		return catalogue[i].Template
	}
	return zhTable()[i]
}

// zhTable holds the zh template of every catalogue entry, by the entry's
// index, built the first time a zh text is asked for.
var zhTable = sync.OnceValue(func() []string {
	t := make([]string, len(catalogue))
	for _, z := range zhTemplates {
		i, ok := byID()[z.id]
		if !ok {
			panic("tracemsg: zh template for unknown id " + z.id)
		}
		if t[i] != "" {
			panic("tracemsg: zh template for " + z.id + " twice")
		}
		t[i] = z.tmpl
	}
	return t
})

// parseLang is the lang of code, false for a language with no catalogue.
func parseLang(code string) (lang, bool) {
	for i, c := range Languages {
		if c == code {
			return lang(i), true
		}
	}
	return en, false
}

// Template is the template of id in language code ("en" or "zh"): "" with
// true when id is not rendered from its arguments, false when the language
// or the id is unknown.
func Template(code, id string) (string, bool) {
	l, ok := parseLang(code)
	i, known := byID()[id]
	if !ok || !known {
		return "", false
	}
	return template(l, i), true
}

// RenderIn is the text of message id with args in language code ("en" is
// exactly Render). It is false for an unknown language or id, and for a zh
// id that is not rendered from its arguments (its template is ""), or
// whose pieces cannot be rendered from args (a trace written before its
// piece arguments existed; pieces.go): the caller then shows the
// event's own (English) msg.
func RenderIn(code, id string, args []sim.Arg) (string, bool) {
	l, ok := parseLang(code)
	if !ok {
		return "", false
	}
	if l == en {
		return Render(id, args)
	}
	i, known := byID()[id]
	if !known || template(l, i) == "" || !piecesRender(i, args, l) {
		return "", false
	}
	return string(appendTemplate(nil, template(l, i), args, l, nil)), true
}

// AppendIn appends the text of message id with args in language code to
// dst, like Append (which it is for "en"), without allocating when dst has
// room. An unknown language is rendered in English; an unknown id, or one
// with no template in the language, is written as "{id}".
func AppendIn(dst []byte, code, id string, args []sim.Arg) []byte {
	l, _ := parseLang(code)
	i, known := byID()[id]
	if !known || (l != en && template(l, i) == "") {
		return append(append(append(dst, '{'), id...), '}')
	}
	return appendTemplate(dst, template(l, i), args, l, nil)
}
