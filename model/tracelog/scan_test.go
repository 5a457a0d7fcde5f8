package tracelog

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/sim"
)

// sample writes a small trace: two events, a history record between them.
func sample(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	h := NewHeader()
	h.Scenario, h.Key, h.Strategy, h.DurationMS, h.Quorum = "s", "k", "set-del", 1000, 1
	h.Nodes = []Node{{Name: "redis-1", Role: "master", Lock: true}}
	h.Clients = []Client{{Name: "A", Holds: 1}}
	w := NewWriter(&buf, h)
	w.Event(sim.Event{Seq: 1, At: time.Millisecond, Proc: "A", Kind: "acquired", Msg: "acquired A-1",
		ID: "acquired", Args: sim.Args{sim.S("client", "A"), sim.S("token", "A-1"), sim.I("until_ms", 30000)}})
	w.History(&judge.Event{At: time.Millisecond, Kind: judge.EnterCS, Client: "A", Wait: time.Millisecond}, 1)
	w.Event(sim.Event{Seq: 2, At: 2 * time.Millisecond, Proc: "sim", Kind: "end", Msg: "run ends"})
	w.End(0xabc)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// What a Writer writes, Read reads back: header, events with their id and
// arguments, history records in their place, the end record.
func TestRoundTrip(t *testing.T) {
	ts, err := Read("t.jsonl", strings.NewReader(sample(t)))
	if err != nil {
		t.Fatal(err)
	}
	tr := ts[0]
	if tr.Header.Scenario != "s" || len(tr.Events) != 2 || len(tr.History) != 1 || tr.End.TraceHash != "0000000000000abc" {
		t.Fatalf("%+v", tr)
	}
	e := tr.Events[0]
	if a, ok := e.Args.Get("until_ms"); e.ID != "acquired" || !ok || !a.IsInt || a.Int != 30000 || e.At != time.Millisecond {
		t.Errorf("event %+v", e)
	}
	if h := tr.History[0]; h.After != 1 || h.Event.Kind != judge.EnterCS || h.Event.Wait != time.Millisecond {
		t.Errorf("history %+v", h)
	}
}

// A broken, foreign or future file is one FILE:LINE error.
func TestReadRefuses(t *testing.T) {
	good := sample(t)
	lines := strings.Split(strings.TrimSuffix(good, "\n"), "\n")
	cut := strings.Join(lines[:len(lines)-1], "\n")
	for _, c := range []struct{ in, want string }{
		{"", "t.jsonl:1: empty file"},
		{strings.Replace(good, `"version":1`, `"version":2`, 1), "t.jsonl:1: header: trace format version 2 is not supported: this lockstep reads version 1"},
		{strings.Replace(good, `"format":"lockstep-trace"`, `"format":"other"`, 1), "t.jsonl:1: header: not a lockstep trace"},
		{lines[1], `t.jsonl:1: the first record is not a trace header`},
		{cut, "t.jsonl:4: the trace stops without its end record: the file is truncated"},
		{strings.Replace(good, `"seq":2`, `"seq":3`, 1), "t.jsonl:4: event seq 3, want 2"},
		{strings.Replace(good, `"events":2`, `"events":5`, 1), "t.jsonl:5: the end record counts 5 events"},
		{strings.Replace(good, `"type":"history"`, `"type":"mystery"`, 1), `t.jsonl:3: unknown record type "mystery"`},
		{lines[0] + "\n" + strings.Repeat("y", MaxLineBytes+1), "t.jsonl:2: line longer than"},
		{lines[0] + "\n{]", "t.jsonl:2: not a JSON object"},
		{strings.Replace(good, `"at_ns":2000000`, `"at_ns":500`, 1), "t.jsonl:4: event 2 at 0.000s is before event 1 at 0.001s"},
		{strings.Replace(good, `"clients":[{"name":"A","holds":1}]`, `"clients":[]`, 1), "t.jsonl:1: header: the header names no clients"},
	} {
		_, err := Read("t.jsonl", strings.NewReader(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%.50q: %v, want %q", c.in, err, c.want)
		}
	}
}
