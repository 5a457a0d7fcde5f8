package sim

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Event is one line of the trace: what happened, when (true time), where.
type Event struct {
	Seq  int           `json:"seq"`
	At   time.Duration `json:"-"`
	Proc string        `json:"proc"`
	Kind string        `json:"kind"`
	Msg  string        `json:"msg"`
}

// MarshalJSON writes the time as milliseconds with microsecond precision, a
// unit a person can read in a JSON line.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	return json.Marshal(struct {
		AtMS string `json:"at_ms"`
		plain
	}{FormatMS(e.At), plain(e)})
}

// FormatMS renders a true time as milliseconds with microsecond precision.
func FormatMS(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 3, 64)
}

// String is the event as one human-readable line.
func (e Event) String() string {
	return fmt.Sprintf("%s %-12s %-10s %s", FormatTime(e.At), e.Proc, e.Kind, e.Msg)
}

// Trace receives every event in order, hashes it, and hands it to sinks. It
// holds no history itself, so a long run's memory stays bounded; a sink that
// wants history keeps it.
type Trace struct {
	n     int
	h     uint64 // FNV-64a state
	sinks []func(Event)
}

// FNV-64a, as hash/fnv computes it; inlined so that hashing a line is a loop
// over its bytes, with no interface call or formatting.
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

func newTrace() *Trace { return &Trace{h: fnvOffset64} }

// Subscribe adds a sink that sees every later event.
func (t *Trace) Subscribe(fn func(Event)) { t.sinks = append(t.sinks, fn) }

// Len is the number of events so far.
func (t *Trace) Len() int { return t.n }

// Hash is an FNV-64a hash over every event so far; equal traces have equal hashes.
func (t *Trace) Hash() uint64 { return t.h }

// Emit records an event at the kernel's current time, its message formatted
// as by fmt.Sprintf.
func (k *Kernel) Emit(proc, kind, format string, args ...any) {
	var msg string
	switch {
	case len(args) == 0 && strings.IndexByte(format, '%') < 0:
		msg = format // what Sprintf would return, without the copy
	case format == "%s" && len(args) == 1:
		if s, ok := args[0].(string); ok {
			msg = s
		} else {
			msg = fmt.Sprintf(format, args...)
		}
	default:
		msg = fmt.Sprintf(format, args...)
	}
	k.EmitMsg(proc, kind, msg)
}

// EmitMsg records an event whose message is already built: the hot paths
// build theirs with strconv and append instead of fmt.
func (k *Kernel) EmitMsg(proc, kind, msg string) {
	t := k.trace
	t.n++
	e := Event{Seq: t.n, At: k.now, Proc: proc, Kind: kind, Msg: msg}
	t.hashLine(&e)
	for _, s := range t.sinks {
		s(e)
	}
}

// hashLine adds "<at ns>|<proc>|<kind>|<msg>\n" to the hash: the line the
// trace hash has always been defined over (it was once written with
// fmt.Fprintf), so hashes stay comparable across versions.
func (t *Trace) hashLine(e *Event) {
	var num [20]byte
	h := t.h
	for _, b := range strconv.AppendInt(num[:0], int64(e.At), 10) {
		h = (h ^ uint64(b)) * fnvPrime64
	}
	h = fnvString(h, "|")
	h = fnvString(h, e.Proc)
	h = fnvString(h, "|")
	h = fnvString(h, e.Kind)
	h = fnvString(h, "|")
	h = fnvString(h, e.Msg)
	t.h = fnvString(h, "\n")
}

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime64
	}
	return h
}

// FormatTime renders a true time as seconds with millisecond precision
// ("31.002s"), the unit the stories and explanations use.
func FormatTime(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	s := strconv.FormatFloat(float64(d)/float64(time.Second), 'f', 3, 64) + "s"
	if neg {
		return "-" + s
	}
	return s
}
