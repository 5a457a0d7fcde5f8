package sim

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
)

// Arg is one named argument of a trace message id (Event.ID): a string or
// an integer, so that a reader in any language can rebuild what the English
// message says without parsing it. Integers that are durations are in
// milliseconds and say so in their name ("until_ms").
type Arg struct {
	Key   string
	Str   string
	Int   int64
	IsInt bool
}

// S is a string argument.
func S(key, v string) Arg { return Arg{Key: key, Str: v} }

// I is an integer argument.
func I(key string, v int64) Arg { return Arg{Key: key, Int: v, IsInt: true} }

// Args are a message's arguments, in the order the emitter gave them; they
// are written as one JSON object.
type Args []Arg

// Get is the argument named key, and false when there is none.
func (a Args) Get(key string) (Arg, bool) {
	for _, x := range a {
		if x.Key == key {
			return x, true
		}
	}
	return Arg{}, false
}

// MarshalJSON writes the arguments as one object, in order.
func (a Args) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, x := range a {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, x.Key)
		b = append(b, ':')
		if x.IsInt {
			b = strconv.AppendInt(b, x.Int, 10)
			continue
		}
		s, err := json.Marshal(x.Str)
		if err != nil {
			return nil, err
		}
		b = append(b, s...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads an object of strings and integers; its keys come
// back sorted (JSON objects have no order).
func (a *Args) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	out := make(Args, 0, len(m))
	for k, raw := range m {
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			out = append(out, S(k, s))
			continue
		}
		var n int64
		if err := json.Unmarshal(raw, &n); err != nil {
			return &json.UnmarshalTypeError{Value: string(raw), Field: k, Type: argType}
		}
		out = append(out, I(k, n))
	}
	sortArgs(out)
	*a = out
	return nil
}

// EmitID records an event like EmitBytes, with a message id and its
// arguments beside the English text. Neither is hashed (the trace hash is
// the text's), and both reach a sink only when it wants the text: a
// headless run pays nothing for them, and args (built on the caller's
// stack) are copied only then.
func (k *Kernel) EmitID(proc, kind, id string, args []Arg, msg []byte) {
	t := k.trace
	if !t.unhashed {
		hashLine(t, k.now, proc, kind, msg)
	}
	t.n++
	e := Event{Seq: t.n, At: k.now, Proc: proc, Kind: kind}
	if t.wantMsg(kind) {
		e.Msg, e.ID = string(msg), id
		e.Args = append(Args(nil), args...)
	}
	t.publish(e)
}

var argType = reflect.TypeOf(Arg{})

func sortArgs(a Args) { sort.Slice(a, func(i, j int) bool { return a[i].Key < a[j].Key }) }

// EmitIDf is EmitID with the message formatted as by fmt.Sprintf (in the
// kernel's reused buffer, like Emit).
func (k *Kernel) EmitIDf(proc, kind, id string, args []Arg, format string, a ...any) {
	if !k.WantsText(kind) {
		k.trace.skip(k.now, proc, kind)
		return
	}
	k.buf = fmt.Appendf(k.buf[:0], format, a...)
	k.EmitID(proc, kind, id, args, k.buf)
}

// Scratch is the kernel's reused message buffer, emptied: a caller that
// builds a message in it hands it back with EmitIDScratch.
func (k *Kernel) Scratch() []byte { return k.buf[:0] }

// EmitIDScratch is EmitID for a message built in Scratch's buffer, which
// the kernel keeps (grown) for the next one.
func (k *Kernel) EmitIDScratch(proc, kind, id string, args []Arg, msg []byte) {
	k.buf = msg
	k.EmitID(proc, kind, id, args, msg)
}
