package tracelog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/sim"
)

// Error is a problem with one line of a file: "FILE:LINE: message".
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// lines reads a file line by line within the bounds.
type lines struct {
	name string
	r    *bufio.Reader
	n    int
}

func newLines(name string, r io.Reader) *lines {
	return &lines{name: name, r: bufio.NewReaderSize(r, 64<<10)}
}

func (l *lines) errf(format string, a ...any) error {
	return &Error{l.name, l.n, fmt.Sprintf(format, a...)}
}

// next is the next non-blank line, io.EOF at the end.
func (l *lines) next() ([]byte, error) {
	for {
		b, err := l.read()
		if err != nil {
			return nil, err
		}
		if b = bytes.TrimSpace(b); len(b) > 0 {
			return b, nil
		}
	}
}

func (l *lines) read() ([]byte, error) {
	var line []byte
	for {
		chunk, err := l.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxLineBytes+1 {
			l.n++
			return nil, l.errf("line longer than %d bytes", MaxLineBytes)
		}
		if err == nil || errors.Is(err, io.EOF) {
			if n := len(bytes.TrimSuffix(line, []byte{'\n'})); n > MaxLineBytes {
				l.n++
				return nil, l.errf("line longer than %d bytes", MaxLineBytes)
			}
		}
		switch {
		case err == nil:
			l.n++
			if l.n > MaxLines {
				return nil, l.errf("more than %d lines", MaxLines)
			}
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			l.n++
			return line, nil
		case errors.Is(err, io.EOF):
			return nil, io.EOF
		default:
			return nil, l.errf("%v", err)
		}
	}
}

// decode reads one JSON object line into v.
func (l *lines) decode(b []byte, v any) error {
	if !utf8.Valid(b) {
		return l.errf("not UTF-8")
	}
	if err := json.Unmarshal(b, v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return l.errf("not a JSON object: %v (at byte %d)", err, se.Offset)
		}
		return l.errf("%v", err)
	}
	return nil
}

// Trace is a whole trace file read back.
type Trace struct {
	Header  Header
	Events  []sim.Event
	History []Entry
	End     End
}

// Entry is one history record of a trace and where it falls among the
// events: after the first After of them, going with event With (After or
// After+1; 0: the trace does not say).
type Entry struct {
	After, With int
	Event       judge.Event
}

// probe is what a line says it is.
type probe struct {
	Type string `json:"type"`
	Op   string `json:"op"`
}

// Read reads a trace file (the TUI's trace player, `lockstep check`): one
// trace or several one after the other (`lockstep run --trace` of several
// scenarios), each a header, whose format and version must be this
// package's, its events and history records, and its end record, which
// must count the events (else the file is truncated).
func Read(name string, r io.Reader) ([]*Trace, error) {
	l := newLines(name, r)
	var out []*Trace
	var t *Trace
	for {
		b, err := l.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if t == nil {
			t = &Trace{}
			if err := l.header(b, &t.Header); err != nil {
				return nil, err
			}
			out = append(out, t)
			continue
		}
		ended, err := t.add(l, b)
		if err != nil {
			return nil, err
		}
		if ended {
			t = nil
		}
	}
	switch {
	case len(out) == 0:
		return nil, &Error{name, 1, "empty file: a trace starts with its header record"}
	case t != nil:
		return nil, &Error{name, l.n, "the trace stops without its end record: the file is truncated"}
	}
	return out, nil
}

func (l *lines) header(b []byte, h *Header) error {
	var p probe
	if err := l.decode(b, &p); err != nil {
		return err
	}
	if p.Type != TypeHeader {
		return l.errf("the first record is not a trace header (type %q, want %q): is this a lockstep trace?", clip(p.Type), TypeHeader)
	}
	if err := l.decode(b, h); err != nil {
		return err
	}
	if err := h.check(); err != nil {
		return l.errf("header: %v", err)
	}
	return nil
}

// add reads one record after the header; true for the end record.
func (t *Trace) add(l *lines, b []byte) (bool, error) {
	p, err := l.probe(b)
	if err != nil {
		return false, err
	}
	switch p.Type {
	case TypeEvent:
		e, err := l.event(b, len(t.Events))
		if err != nil {
			return false, err
		}
		if n := len(t.Events); n > 0 && e.At < t.Events[n-1].At {
			return false, l.errf("event %d at %s is before event %d at %s: a trace is in time order", e.Seq, sim.FormatTime(e.At), n, sim.FormatTime(t.Events[n-1].At))
		}
		t.Events = append(t.Events, e)
	case TypeHistory:
		var h History
		if err := l.decode(b, &h); err != nil {
			return false, err
		}
		if h.Type != TypeHistory {
			return false, l.errf("a record whose type is given twice")
		}
		e, _, err := h.Judge(false)
		if err != nil {
			return false, l.errf("%v", err)
		}
		n := len(t.Events)
		if h.Event != 0 && h.Event != n && h.Event != n+1 {
			return false, l.errf("a history record going with event %d after event %d: it goes with that one or the next", h.Event, n)
		}
		t.History = append(t.History, Entry{n, h.Event, e})
	case TypeEnd:
		if err := l.decode(b, &t.End); err != nil {
			return false, err
		}
		if t.End.Events != len(t.Events) {
			return false, l.errf("the end record counts %d events, the file holds %d", t.End.Events, len(t.Events))
		}
		return true, nil
	case TypeHeader:
		return false, l.errf("a header before the end record of the trace above it: that trace is truncated")
	default:
		return false, l.errf("unknown record type %q (want event, history or end)", clip(p.Type))
	}
	return false, nil
}

// event reads an event record; it must follow the ones before it.
func (l *lines) event(b []byte, before int) (sim.Event, error) {
	var r EventRecord
	if err := l.decode(b, &r); err != nil {
		return sim.Event{}, err
	}
	if r.Type != TypeEvent {
		return sim.Event{}, l.errf("a record whose type is given twice")
	}
	ms, err := strconv.ParseFloat(string(r.AtMS), 64)
	if err != nil {
		return sim.Event{}, l.errf("at_ms %q is not a number", clip(string(r.AtMS)))
	}
	if err := checkMS("at_ms", ms); err != nil {
		return sim.Event{}, l.errf("%v", err)
	}
	if r.Seq != before+1 {
		return sim.Event{}, l.errf("event seq %d, want %d: events are numbered from 1 without gaps", r.Seq, before+1)
	}
	at := msDur(ms)
	if r.AtNS != 0 {
		if r.AtNS < 0 || time.Duration(r.AtNS) > MaxDuration {
			return sim.Event{}, l.errf("at_ns %d: must be within 0..%d", r.AtNS, int64(MaxDuration))
		}
		at = time.Duration(r.AtNS)
	}
	return sim.Event{Seq: r.Seq, At: at, Proc: r.Proc, Kind: r.Kind, Msg: r.Msg, ID: r.ID, Args: r.Args}, nil
}

// probe is what type of record line b is. The Writer starts every line
// with its type, so the common case costs no decoding; any other line is
// decoded for it (and every record is decoded whole after, which checks
// that the type said here is the line's).
func (l *lines) probe(b []byte) (probe, error) {
	for _, typ := range [...]string{TypeEvent, TypeHistory} {
		if bytes.HasPrefix(b, []byte(`{"type":"`+typ+`",`)) {
			return probe{Type: typ}, nil
		}
	}
	var p probe
	err := l.decode(b, &p)
	return p, err
}
