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
//	time   a true or clock time in seconds with three decimals ("31.002s")
//	until  "until <time>", or "for good (a crash without restart_after)"
//	       when it is Forever
//
// Placeholders never nest and a template has no other braces.
package tracemsg

import (
	"math"
	"strconv"
	"strings"
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

var byID = func() map[string]int {
	m := make(map[string]int, len(catalogue))
	for i, c := range catalogue {
		if _, dup := m[c.ID]; dup {
			panic("tracemsg: id " + c.ID + " twice in the catalogue")
		}
		m[c.ID] = i
	}
	return m
}()

// Messages is the catalogue, in its order (docs/trace-format.md lists it).
func Messages() []Message { return append([]Message(nil), catalogue...) }

// Lookup is the message of id, and false when the catalogue has none.
func Lookup(id string) (Message, bool) {
	i, ok := byID[id]
	if !ok {
		return Message{}, false
	}
	return catalogue[i], true
}

// Emit records a trace line of message id at the kernel's current time,
// its text rendered from the catalogue (in the kernel's reused buffer).
func Emit(k *sim.Kernel, proc, kind, id string, args ...sim.Arg) {
	if !k.WantsText(kind) { // a run nobody reads (sim.Trace.StopHashing): render nothing
		k.EmitUnread(proc, kind)
		return
	}
	k.EmitIDScratch(proc, kind, id, args, Append(k.Scratch(), id, args))
}

// Render is the English text of message id with args; false when the
// catalogue has no such id.
func Render(id string, args []sim.Arg) (string, bool) {
	if _, ok := byID[id]; !ok {
		return "", false
	}
	return string(Append(nil, id, args)), true
}

// Append appends the text of message id with args to dst. An unknown id
// or argument is written as "{id}" or "{name}", never a panic: the
// catalogue test (TestEveryTraceEventRendersFromItsID) keeps every emitter
// in step with it.
func Append(dst []byte, id string, args []sim.Arg) []byte {
	i, ok := byID[id]
	if !ok {
		return append(append(append(dst, '{'), id...), '}')
	}
	return appendTemplate(dst, catalogue[i].Template, args, en)
}

// appendTemplate writes template t with args, its formats in language l.
func appendTemplate(dst []byte, t string, args []sim.Arg, l lang) []byte {
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
		dst = appendArg(dst, t[:end], args, l)
		t = t[end+1:]
	}
}

// appendArg writes one placeholder, "name" or "name:format".
func appendArg(dst []byte, ph string, args []sim.Arg, l lang) []byte {
	name, format, _ := strings.Cut(ph, ":")
	var a sim.Arg
	found := false
	for _, x := range args {
		if x.Key == name {
			a, found = x, true
			break
		}
	}
	if !found {
		return append(append(append(dst, '{'), ph...), '}')
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
	case "sdur":
		if d >= 0 {
			dst = append(dst, '+')
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
