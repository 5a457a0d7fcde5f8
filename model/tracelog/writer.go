package tracelog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/sim"
)

// Writer writes one trace: the header at once, then events and history
// records as they happen, then the end record. The first write error
// sticks: later writes do nothing and Close returns it.
type Writer struct {
	buf      *bufio.Writer
	enc      *json.Encoder
	scenario string
	events   int
	err      error
}

// NewWriter writes h (its Type, Format and Version set to this format's)
// to w and returns the writer of the records that follow.
func NewWriter(w io.Writer, h Header) *Writer {
	h.Type, h.Format, h.Version = TypeHeader, Format, Version
	t := &Writer{buf: bufio.NewWriter(w), scenario: h.Scenario}
	t.enc = json.NewEncoder(t.buf)
	t.enc.SetEscapeHTML(false)
	t.put(h)
	return t
}

// EventRecord is one trace event line.
type EventRecord struct {
	Type     string      `json:"type"` // "event"
	Scenario string      `json:"scenario"`
	Seq      int         `json:"seq"`
	AtMS     json.Number `json:"at_ms"` // milliseconds, three decimals
	AtNS     int64       `json:"at_ns"` // the same time exactly, in nanoseconds
	Proc     string      `json:"proc"`
	Kind     string      `json:"kind"`
	Msg      string      `json:"msg"`
	ID       string      `json:"id,omitempty"`
	Args     sim.Args    `json:"args,omitempty"`
}

// End is the last record: how many events the trace has and its hash (as
// `lockstep run` prints it), so a reader can tell a whole trace from a
// truncated one.
type End struct {
	Type      string `json:"type"` // "end"
	Events    int    `json:"events"`
	TraceHash string `json:"trace_hash"`
}

// Event writes one trace event.
func (t *Writer) Event(e sim.Event) {
	t.events++
	t.put(EventRecord{TypeEvent, t.scenario, e.Seq, json.Number(sim.FormatMS(e.At)), int64(e.At), e.Proc, e.Kind, e.Msg, e.ID, e.Args})
}

// History writes one event the judge read, which goes with trace event
// seq (see History.Event; 0: not known).
func (t *Writer) History(e *judge.Event, seq int) {
	h := FromJudge(e)
	h.Event, h.AtNS = seq, int64(e.At)
	t.put(h)
}

// End writes the end record with the run's trace hash (16 hex digits).
func (t *Writer) End(hash uint64) {
	t.put(End{TypeEnd, t.events, fmt.Sprintf("%016x", hash)})
}

// Close flushes what is buffered and returns the first error.
func (t *Writer) Close() error {
	if t.err == nil {
		t.err = t.buf.Flush()
	}
	return t.err
}

func (t *Writer) put(v any) {
	if t.err == nil {
		t.err = t.enc.Encode(v)
	}
}
