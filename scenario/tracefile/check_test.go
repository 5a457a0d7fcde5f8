package tracefile

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/model/tracelog"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// recordTrace runs a bundled scenario, recording its trace.
func recordTrace(t *testing.T, name string) ([]byte, *runner.Report) {
	t.Helper()
	return recordTraceB(t, name)
}

func recordTraceB(t testing.TB, name string) ([]byte, *runner.Report) {
	t.Helper()
	s, err := scenariotest.File(t).Find(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(s, scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var buf bytes.Buffer
	tw := tracelog.NewWriter(&buf, r.TraceHeader())
	r.RecordTrace(tw)
	rep := r.Run()
	r.EndTrace(tw)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), rep
}

// A lockstep trace is a history: judged by CheckHistory, without the world,
// it gives the run's metrics, first violation, stuck reason, event count
// and trace hash, for scenarios of every kind of fault the judge reads
// (pause and wrong delete, failover, restart, clock jumps, Redlock).
func TestCheckTraceGivesRunMetrics(t *testing.T) {
	for _, name := range []string{"gc-pause-wrong-delete", "fencing-token-kleppmann", "failover-before-replication",
		"sentinel-split-brain", "redlock-k3-clock-jump", "node-crash-everysec", "node-clock-drift-fast", "watchdog-hung-unlimited",
		"granularity-key-per-resource", "granularity-global-lock"} { // named resources: the header's clients carry them
		t.Run(name, func(t *testing.T) {
			data, rep := recordTrace(t, name)
			got, err := CheckHistory(name+".jsonl", bytes.NewReader(data), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("%d histories, want 1", len(got))
			}
			g := got[0]
			if g.Metrics != rep.Metrics || g.FirstViolation != rep.FirstViolation || g.StuckReason != rep.StuckReason ||
				g.TraceHash != rep.TraceHash || g.Events != rep.Events {
				t.Errorf("check: %+v %q %q %s %d\nrun:   %+v %q %q %s %d", g.Metrics, g.FirstViolation, g.StuckReason, g.TraceHash, g.Events,
					rep.Metrics, rep.FirstViolation, rep.StuckReason, rep.TraceHash, rep.Events)
			}
		})
	}
}

// Recording a trace changes nothing the run does (the tap also sees the
// admitted reads and the client states a plain run does not make).
func TestRecordingKeepsTheTraceHash(t *testing.T) {
	for _, name := range []string{"gc-pause-wrong-delete", "failover-after-replication", "watchdog-long-job",
		"sentinel-split-brain", "redlock-k3-crash", "fair-fifo", "reentrant-nested",
		"replica-clock-ahead-redis7", "replica-clock-ahead-redis6", "evicted-lock-volatile-lru"} { // a replicated record reads the replica's key
		_, rec := recordTrace(t, name)
		r, err := runner.New(scenariotest.Scenario(t, name), scenario.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		if plain := r.Run(); plain.TraceHash != rec.TraceHash || plain.Metrics != rec.Metrics {
			t.Errorf("%s: recorded run %s %+v, plain run %s %+v", name, rec.TraceHash, rec.Metrics, plain.TraceHash, plain.Metrics)
		}
		r.Close()
	}
}

// Two clients whose critical sections overlap, in a hand-written history
// with no node effects at all, are a violation; the same history with the
// second acquire after the first release is safe.
func TestCheckHandWrittenHistory(t *testing.T) {
	const overlap = `{"at_ms": 0, "op": "acquire", "client": "A", "token": "A-1"}
{"at_ms": 5, "op": "write", "client": "A", "token": "A-1", "value": 1}
{"at_ms": 10, "op": "acquire", "client": "B", "token": "B-1"}
{"at_ms": 12, "op": "write", "client": "B", "token": "B-1", "value": 1}
{"at_ms": 20, "op": "release", "client": "A", "token": "A-1"}
{"at_ms": 30, "op": "release", "client": "B", "token": "B-1"}
`
	reps, err := CheckHistory("h.jsonl", strings.NewReader(overlap), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := reps[0].Metrics
	if m.Safe || m.Violations != 1 || m.LostUpdates != 1 || m.Acquired != 2 || reps[0].OK {
		t.Errorf("overlapping holders: %+v ok=%v", m, reps[0].OK)
	}
	if !strings.Contains(reps[0].FirstViolation, "B acquired while A") {
		t.Errorf("first violation %q", reps[0].FirstViolation)
	}
	serial := strings.Replace(strings.Replace(overlap, `"at_ms": 10,`, `"at_ms": 25,`, 1), `"at_ms": 12,`, `"at_ms": 26,`, 1)
	serial = strings.Replace(serial, `"at_ms": 20,`, `"at_ms": 21,`, 1)
	lines := strings.Split(strings.TrimSpace(serial), "\n")
	lines[2], lines[3], lines[4] = lines[4], lines[2], lines[3] // time order: A's release first
	reps, err = CheckHistory("h.jsonl", strings.NewReader(strings.Join(lines, "\n")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := reps[0].Metrics; !m.Safe || m.Violations != 0 || !reps[0].OK {
		t.Errorf("one holder at a time: %+v ok=%v (%s)", m, reps[0].OK, reps[0].FirstViolation)
	}
}

// Node effects, when a history has them, are judged too: B's delete of
// the key A set is a wrong release.
func TestCheckHistoryNodeEffects(t *testing.T) {
	const h = `{"type": "world", "nodes": [{"name": "r1", "role": "master", "lock": true}], "clients": [{"name": "A"}, {"name": "B"}], "quorum": 1}
{"at_ms": 0, "op": "set", "node": "r1", "client": "A", "token": "A-1", "ttl_ms": 1000}
{"at_ms": 1, "op": "acquire", "client": "A", "token": "A-1"}
{"at_ms": 2, "op": "deleted", "node": "r1", "client": "B"}
{"at_ms": 3, "op": "release", "client": "A", "token": "A-1"}
`
	reps, err := CheckHistory("h.jsonl", strings.NewReader(h), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := reps[0].Metrics; m.WrongReleases != 1 || !m.Safe {
		t.Errorf("metrics %+v, want one wrong release", m)
	}
}

// Bad lines are FILE:LINE errors.
func TestCheckHistoryBadLines(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "h.jsonl:1: empty file"},
		{`{"at_ms": 0, "op": "acquire", "client": "A"}` + "\nnot json\n", "h.jsonl:2: not a JSON object"},
		{`{"at_ms": 5, "op": "acquire", "client": "A"}` + "\n" + `{"at_ms": 1, "op": "release", "client": "A"}`, "h.jsonl:2: at_ms 1 is before"},
		{`{"at_ms": 0, "op": "fly", "client": "A"}`, `h.jsonl:1: unknown op "fly"`},
		{`{"at_ms": 0, "op": "write", "client": "A"}`, "h.jsonl:1: op write needs a value"},
		{`{"at_ms": 0, "op": "set", "client": "A", "token": "A-1"}`, "h.jsonl:1: op set needs a node"},
		{`{"at_ms": 1e300, "op": "acquire", "client": "A"}`, "h.jsonl:1: at_ms 1e+300: must be within"},
		{"\n\n" + `{"type":"header","format":"lockstep-trace","version":7,"clients":[{"name":"A"}]}`, "h.jsonl:3: header: trace format version 7 is not supported"},
		{`{"at_ms": 0, "op": "acquire", "client": "A"}` + "\n" + strings.Repeat("x", tracelog.MaxLineBytes+5), "h.jsonl:2: line longer than"},
	} {
		_, err := CheckHistory("h.jsonl", strings.NewReader(c.in), nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%.60q: error %v, want prefix %q", c.in, err, c.want)
		}
	}
}
