package harness

import (
	"bytes"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lockstep-sim/lockstep/model/tracelog"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// The harness's lazily encoded trace is byte for byte what
// runner.Runner.RecordTrace writes, over every bundled scenario (the
// judge events' lines, their order, the end record): a change to one that
// the other misses fails here.
func TestTraceRecordMatchesRecordTrace(t *testing.T) {
	_, src, _, _ := runtime.Caller(0)
	f, err := scenario.LoadFile(filepath.Join(filepath.Dir(src), "..", "scenarios.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Scenarios) < 10 {
		t.Fatalf("only %d bundled scenarios: the comparison would prove little", len(f.Scenarios))
	}
	for _, s := range f.Scenarios {
		want := runRecorded(t, s, func(r *runner.Runner) func() []byte {
			var buf bytes.Buffer
			tw := tracelog.NewWriter(&buf, r.TraceHeader())
			r.RecordTrace(tw)
			return func() []byte {
				r.EndTrace(tw)
				if err := tw.Close(); err != nil {
					t.Fatal(err)
				}
				return buf.Bytes()
			}
		})
		got := runRecorded(t, s, func(r *runner.Runner) func() []byte {
			rec := recordTrace(r)
			return func() []byte {
				rec.end(r.World().K.Trace().Hash())
				b, err := rec.jsonl()
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
		})
		if !bytes.Equal(want, got) {
			t.Errorf("%s: the harness's trace differs from RecordTrace's (%d and %d bytes)", s.Name, len(got), len(want))
		}
	}
}

// runRecorded runs s with a recorder attached; finish returns the file.
func runRecorded(t *testing.T, s *scenario.Scenario, attach func(*runner.Runner) (finish func() []byte)) []byte {
	t.Helper()
	r, err := runner.New(s, scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	finish := attach(r)
	r.Run()
	return finish()
}
