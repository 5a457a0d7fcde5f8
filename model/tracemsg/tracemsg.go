// Package tracemsg is the catalogue of the trace's message ids: for each,
// the English template its text is rendered from. A line emitted through
// it (Emit) carries its id and arguments beside the text, and the text is
// exactly what Render gives from them, so a reader in another language
// can render the line from id and arguments alone, with its own catalogue
// (issue 16; docs/trace-format.md, "Message ids").
//
// A template is text with placeholders {name} or {name:format}, name being
// an argument. Without a format a string argument is written as it is and
// an integer in decimal. The formats take an integer of nanoseconds:
//
//	dur    a Go duration ("1.5s")
//	rdur   the same rounded to the millisecond (model/tracefmt.Dur)
//	sdur   a Go duration with a "+" when not negative
//	srdur  rdur with a "+" when not negative (model/tracefmt.SignedDur)
//	time   a true or clock time in seconds with three decimals ("31.002s")
//	until  "until <time>", or "for good (a crash without restart_after)"
//	       when it is Forever
//
// and one format takes a string: msg, whose argument names other message
// ids of the catalogue (pieces: a fault's description, a state, an
// optional note, a Redlock tally's groups), space-separated and most often
// one, each rendered in its place in the same language from the same
// arguments and joined by the language's listSep; "" renders nothing.
// That is how a line carries an enumerated or optional piece of wording
// as a language-neutral value, with no English in its arguments. A piece
// may hold pieces, to a depth of maxPieceDepth; deeper (or an id that
// names itself) is written as the placeholder (TestPiecesAreBounded).
// Inside the piece of placeholder {p:msg}, an argument {x} is looked up as
// "p.x" first, then as "x" (and so on out, a piece in a piece trying
// "p.q.x", "p.x", "x"): a tree of explanations (model/judge.Phrase.Flat)
// is one flat list of arguments whose keys are its paths.
//
// Placeholders never nest and a template has no other braces.
package tracemsg

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lockstep-sim/lockstep/model/tracefmt"
	"github.com/lockstep-sim/lockstep/sim"
)

// Forever is the "until" format's value for "for good" (model.Forever).
const Forever = time.Duration(math.MaxInt64)

// Message is one message id: its English template and what it means.
type Message struct {
	ID       string
	Template string
	Meaning  string
}

// byID is the catalogue's index by id, built the first time a line's
// text is wanted: a run whose trace nobody reads (lockstep run's text
// report, the counter scenarios) renders none, and every process start
// paid for the map (244 entries, 14 KB).
var byID = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, len(catalogue))
	for i, c := range catalogue {
		if _, dup := m[c.ID]; dup {
			panic("tracemsg: id " + c.ID + " twice in the catalogue")
		}
		m[c.ID] = i
	}
	return m
})

// Messages is the catalogue, in its order (docs/trace-format.md lists it).
func Messages() []Message { return append([]Message(nil), catalogue...) }

// Lookup is the message of id, and false when the catalogue has none.
func Lookup(id string) (Message, bool) {
	i, ok := byID()[id]
	if !ok {
		return Message{}, false
	}
	return catalogue[i], true
}

// Emit records a trace line of message id at the kernel's current time,
// its text rendered from the catalogue (in the kernel's reused buffer).
func Emit(k *sim.Kernel, proc, kind, id string, args ...sim.Arg) {
	if k.Unread(proc, kind) { // a run nobody reads (sim.Trace.StopHashing): render nothing
		return
	}
	k.EmitIDScratch(proc, kind, id, args, Append(k.Scratch(), id, args))
}

// Render is the English text of message id with args; false when the
// catalogue has no such id.
func Render(id string, args []sim.Arg) (string, bool) {
	if _, ok := byID()[id]; !ok {
		return "", false
	}
	return string(Append(nil, id, args)), true
}

// Append appends the text of message id with args to dst. An unknown id
// or argument is written as "{id}" or "{name}", never a panic: the
// catalogue test (TestEveryTraceEventRendersFromItsID) keeps every emitter
// in step with it.
func Append(dst []byte, id string, args []sim.Arg) []byte {
	i, ok := byID()[id]
	if !ok {
		return append(append(append(dst, '{'), id...), '}')
	}
	return appendTemplate(dst, catalogue[i].Template, args, en, nil)
}

// maxPieceDepth is how deep msg pieces may nest (the judge's explanations
// are the deepest: a violation, its why, how the grant was lost, the
// failover, the fate of the copy, the clock faults behind it...).
const maxPieceDepth = 16

// scope is the path of msg placeholders down to the piece being written:
// its arguments are looked up under it (see lookup). A fixed array, so
// that rendering allocates nothing; nil outside every piece (the common
// line, which then pays nothing for it).
type scope struct {
	seg [maxPieceDepth]string // the placeholders' names
	ids [maxPieceDepth]string // the pieces' ids: one on the path is a cycle
	n   int
}

// holds reports whether piece id is already being written further out.
func (sc *scope) holds(id string) bool {
	for _, x := range sc.ids[:sc.n] {
		if x == id {
			return true
		}
	}
	return false
}

// lookup finds argument name in args, innermost scope first: "a.b.name",
// "a.name", "name" for the scope a, b.
func lookup(args []sim.Arg, sc *scope, name string) (sim.Arg, bool) {
	for k := sc.n; k >= 0; k-- {
		for _, x := range args {
			if keyIs(x.Key, sc.seg[:k], name) {
				return x, true
			}
		}
	}
	return sim.Arg{}, false
}

// keyIs reports whether key is the segments and name joined by dots.
func keyIs(key string, segs []string, name string) bool {
	for _, s := range segs {
		if len(key) <= len(s) || key[:len(s)] != s || key[len(s)] != '.' {
			return false
		}
		key = key[len(s)+1:]
	}
	return key == name
}

// appendTemplate writes template t with args, its formats in language l,
// its arguments looked up in scope sc.
func appendTemplate(dst []byte, t string, args []sim.Arg, l lang, sc *scope) []byte {
	for {
		open := strings.IndexByte(t, '{')
		if open < 0 {
			return append(dst, t...)
		}
		dst = append(dst, t[:open]...)
		t = t[open+1:]
		end := strings.IndexByte(t, '}')
		if end < 0 { // not a template of this catalogue
			return append(dst, t...)
		}
		dst = appendArg(dst, t[:end], args, l, sc)
		t = t[end+1:]
	}
}

// appendArg writes one placeholder, "name" or "name:format".
func appendArg(dst []byte, ph string, args []sim.Arg, l lang, sc *scope) []byte {
	name, format, _ := strings.Cut(ph, ":")
	var a sim.Arg
	found := false
	if sc == nil { // outside every piece: the plain search, inline
		for _, x := range args {
			if x.Key == name {
				a, found = x, true
				break
			}
		}
	} else {
		a, found = lookup(args, sc, name)
	}
	if !found {
		return append(append(append(dst, '{'), ph...), '}')
	}
	if format == "msg" {
		return appendPiece(dst, ph, name, a, args, l, sc)
	}
	if !a.IsInt {
		return append(dst, a.Str...)
	}
	d := time.Duration(a.Int)
	switch format {
	case "dur":
		return append(dst, d.String()...)
	case "rdur":
		return append(dst, tracefmt.Dur(d)...)
	case "sdur", "srdur":
		if d >= 0 {
			dst = append(dst, '+')
		}
		if format == "srdur" {
			return append(dst, tracefmt.Dur(d)...)
		}
		return append(dst, d.String()...)
	case "time":
		return sim.AppendTime(dst, d)
	case "until":
		if d == Forever {
			return append(dst, untilWords[l].forGood...)
		}
		return sim.AppendTime(append(dst, untilWords[l].until...), d)
	}
	return strconv.AppendInt(dst, a.Int, 10)
}

// appendPiece writes a msg placeholder: the templates of the message ids
// its argument a lists (space-separated; most often one), each in
// language l from the same args and joined by the language's listSep;
// nothing for "". An unknown id, one with no template in l, or a piece
// deeper than maxPieceDepth is written as the placeholder, never a panic.
// The pieces' arguments are looked up under name first.
func appendPiece(dst []byte, ph, name string, a sim.Arg, args []sim.Arg, l lang, sc *scope) []byte {
	if a.IsInt {
		return append(append(append(dst, '{'), ph...), '}')
	}
	if sc == nil { // the first piece of the line
		var top scope
		sc = &top
	}
	first := true
	for ids := a.Str; ids != ""; {
		var id string
		id, ids, _ = strings.Cut(ids, " ")
		if id == "" {
			continue
		}
		if !first {
			dst = append(dst, listSep[l]...)
		}
		first = false
		i, ok := byID()[id]
		if !ok || sc.n >= maxPieceDepth || template(l, i) == "" || sc.holds(id) {
			dst = append(append(append(dst, '{'), ph...), '}')
			continue
		}
		sc.seg[sc.n], sc.ids[sc.n] = name, id
		sc.n++
		dst = appendTemplate(dst, template(l, i), args, l, sc)
		sc.n--
	}
	return dst
}
