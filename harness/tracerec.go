package harness

import (
	"bytes"
	"sync"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/model/tracelog"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/sim"
)

// traceRecord keeps a run's trace events and judge events as they happen
// and encodes them as the trace file (docs/trace-format.md) only when it
// is asked for (Report.TraceJSONL: WriteTrace, a failed test's artifact, a
// divergence). Encoding each event as it happened (JSON through
// tracelog.Writer) was an eighth of a harness run's CPU, for a file most
// passing tests never read. The bytes are those runner.Runner.RecordTrace
// writes (TestTraceRecordMatchesRecordTrace).
type traceRecord struct {
	header tracelog.Header
	items  []traceItem
	hash   uint64

	once sync.Once
	file []byte
	err  error
}

// traceItem is one trace event, or one judge event written with the
// trace line seq (History's second argument).
type traceItem struct {
	ev     sim.Event
	hist   *judge.Event
	withTo int
}

// recordTrace makes rec receive r's run from now on, as RecordTrace makes
// a tracelog.Writer: the same events, and the same rule for which trace
// line a judge event goes with. It takes the world's one Tap.
func recordTrace(r *runner.Runner) *traceRecord {
	rec := &traceRecord{header: r.TraceHeader()}
	k := r.World().K
	seq, step := 0, -1 // the last event recorded, and the kernel event that emitted it
	r.OnEvent(func(e sim.Event) {
		seq, step = e.Seq, k.Steps()
		rec.items = append(rec.items, traceItem{ev: e})
	})
	r.World().Tap(func(e judge.Event) {
		with := seq + 1
		if k.Steps() == step && e.Kind != judge.Final {
			with = seq
		}
		rec.items = append(rec.items, traceItem{hist: &e, withTo: with})
	})
	return rec
}

// end notes the run's trace hash, for the end record.
func (rec *traceRecord) end(hash uint64) { rec.hash = hash }

// jsonl encodes the trace file, once.
func (rec *traceRecord) jsonl() ([]byte, error) {
	rec.once.Do(func() {
		var buf bytes.Buffer
		tw := tracelog.NewWriter(&buf, rec.header)
		for i := range rec.items {
			if it := &rec.items[i]; it.hist != nil {
				tw.History(it.hist, it.withTo)
			} else {
				tw.Event(it.ev)
			}
		}
		tw.End(rec.hash)
		rec.err = tw.Close()
		rec.file = buf.Bytes()
	})
	return rec.file, rec.err
}
