package tracefile

import (
	"bytes"
	"testing"
)

// BenchmarkOpenTrace is what tui --trace spends before it draws: reading
// counter-30x200's trace (64,791 events) and the forward pass.
func BenchmarkOpenTrace(b *testing.B) {
	data, _ := recordTraceB(b, "counter-30x200")
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if _, err := OpenTrace("t.jsonl", bytes.NewReader(data), ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTraceSeek is one backward seek and snapshot of a trace player
// (at most traceCheckpointEvery events applied).
func BenchmarkTraceSeek(b *testing.B) {
	data, _ := recordTraceB(b, "counter-30x200")
	p, err := OpenTrace("t.jsonl", bytes.NewReader(data), "")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		p.Seek(p.Steps() - 1 - i%p.Steps())
		p.Snapshot()
	}
}
