package sim

import (
	"encoding/json"
	"fmt"
	"hash"
	"hash/fnv"
	"strconv"
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
	h     hash.Hash64
	sinks []func(Event)
}

func newTrace() *Trace { return &Trace{h: fnv.New64a()} }

// Subscribe adds a sink that sees every later event.
func (t *Trace) Subscribe(fn func(Event)) { t.sinks = append(t.sinks, fn) }

// Len is the number of events so far.
func (t *Trace) Len() int { return t.n }

// Hash is an FNV-64a hash over every event so far; equal traces have equal hashes.
func (t *Trace) Hash() uint64 { return t.h.Sum64() }

// Emit records an event at the kernel's current time.
func (k *Kernel) Emit(proc, kind, format string, args ...any) {
	t := k.trace
	t.n++
	e := Event{Seq: t.n, At: k.now, Proc: proc, Kind: kind, Msg: fmt.Sprintf(format, args...)}
	fmt.Fprintf(t.h, "%d|%s|%s|%s\n", e.At, e.Proc, e.Kind, e.Msg)
	for _, s := range t.sinks {
		s(e)
	}
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
