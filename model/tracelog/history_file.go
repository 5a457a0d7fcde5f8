package tracelog

import (
	"bytes"
	"io"
	"path/filepath"
	"time"

	"github.com/lockstep-sim/lockstep/model/judge"
)

// TypeWorld is the optional first record of a plain history: the nodes,
// clients and quorum of the system the history comes from.
const TypeWorld = "world"

// HistoryFile is one history to judge: a trace's history, or a whole plain
// history file.
type HistoryFile struct {
	Header    Header
	Events    []judge.Event
	Records   int           // a trace's events; a plain history's records
	End       time.Duration // the time of the last record
	TraceHash string        // a trace's; "" for a plain history
}

// ReadHistory reads what `lockstep check` judges: a lockstep trace (one
// HistoryFile per trace in it; see Read) or a plain history, JSON lines of
// History records in time order, optionally after a world record. A plain
// history names its nodes and clients by using them (in order of first
// use) unless a world record lists them; its quorum is then a majority of
// its nodes. A history without enter and leave records is judged as if
// every successful acquire entered the critical section and every release
// left it.
func ReadHistory(name string, r io.Reader) ([]*HistoryFile, error) {
	l := newLines(name, r)
	b, err := l.next()
	if err == io.EOF {
		return nil, &Error{name, 1, "empty file: a history has at least one record"}
	}
	if err != nil {
		return nil, err
	}
	var p probe
	if err := l.decode(b, &p); err != nil {
		return nil, err
	}
	if p.Type == TypeHeader {
		ts, err := Read(name, io.MultiReader(bytes.NewReader(append(b, '\n')), l.r))
		if err != nil {
			return nil, shift(err, l.n-1)
		}
		return fromTraces(ts), nil
	}
	h, err := readPlain(l, b, p, filepath.Base(name))
	if err != nil {
		return nil, err
	}
	return []*HistoryFile{h}, nil
}

// shift moves an error's line number by the lines read before the part
// of the file it was found in.
func shift(err error, by int) error {
	if e, ok := err.(*Error); ok {
		e.Line += by
	}
	return err
}

// fromTraces are the histories of the traces of a file.
func fromTraces(ts []*Trace) []*HistoryFile {
	out := make([]*HistoryFile, len(ts))
	for i, t := range ts {
		h := &HistoryFile{Header: t.Header, Records: len(t.Events), TraceHash: t.End.TraceHash}
		for _, e := range t.History {
			h.Events = append(h.Events, e.Event)
		}
		if n := len(t.Events); n > 0 {
			h.End = t.Events[n-1].At
		}
		out[i] = h
	}
	return out
}

// readPlain reads a plain history whose first line is b.
func readPlain(l *lines, b []byte, p probe, name string) (*HistoryFile, error) {
	hf := &HistoryFile{Header: NewHeader()}
	hf.Header.Scenario, hf.Header.Strategy = name, "recorded"
	world := p.Type == TypeWorld
	if world {
		if err := l.decode(b, &hf.Header); err != nil {
			return nil, err
		}
		hf.Header.Format, hf.Header.Version = Format, Version
		if err := hf.Header.check(); err != nil {
			return nil, l.errf("world: %v", err)
		}
	}
	var recs []History
	var at []int // each record's line
	for first := !world; ; first = false {
		if !first {
			var err error
			if b, err = l.next(); err == io.EOF {
				break
			} else if err != nil {
				return nil, err
			}
		}
		var h History
		if err := l.decode(b, &h); err != nil {
			return nil, err
		}
		if h.Type != "" && h.Type != TypeHistory {
			return nil, l.errf("record type %q in a history (want history, or none)", clip(h.Type))
		}
		recs, at = append(recs, h), append(at, l.n)
	}
	return hf, hf.judgeable(l.name, recs, at, world)
}
