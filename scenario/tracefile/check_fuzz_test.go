package tracefile

import (
	"bytes"
	"strings"
	"testing"
)

// Any bytes given to check or to the trace player are judged or refused
// with an error, never a panic.
func FuzzCheckHistory(f *testing.F) {
	f.Add([]byte(`{"at_ms": 0, "op": "acquire", "client": "A", "token": "A-1"}
{"at_ms": 10, "op": "acquire", "client": "B", "token": "B-1"}
{"at_ms": 20, "op": "set", "node": "r1", "client": "A", "token": "A-1", "ttl_ms": 5}
{"at_ms": 21, "op": "deleted", "node": "r1", "client": "B"}
{"at_ms": 22, "op": "failed_over", "node": "r1", "other": "r2", "key": {"held": true, "owner": "A-1", "ttl_ms": 3, "expires_ms": 25}}
{"at_ms": 30, "op": "final", "holding": ["r2"]}`))
	f.Add([]byte(`{"type":"world","nodes":[{"name":"r1","role":"master"}],"clients":[{"name":"A"}],"quorum":1}
{"at_ms": 1, "op": "node_clock_jumped", "node": "r1", "by_ms": 100, "early_ms": 0}
{"at_ms": 2, "op": "restarted", "node": "r1", "persistence": "everysec"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		CheckHistory("f.jsonl", bytes.NewReader(data), nil) //nolint:errcheck // only panics matter
		if p, err := OpenTrace("f.jsonl", bytes.NewReader(data), ""); err == nil {
			p.Seek(p.Steps())
			p.Snapshot()
		}
	})
}

// The trace player survives what check does not judge: a trace whose
// records name clients and nodes its header does not have.
func TestTracePlayerStrangers(t *testing.T) {
	data, _ := recordTrace(t, "gc-pause-wrong-delete")
	odd := strings.ReplaceAll(string(data), `"client":"B"`, `"client":"Z"`)
	odd = strings.ReplaceAll(odd, `"node":"redis-1"`, `"node":"elsewhere"`)
	p, err := OpenTrace("odd.jsonl", strings.NewReader(odd), "")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i <= p.Steps(); i++ {
		p.Seek(i)
		p.Snapshot()
	}
}
