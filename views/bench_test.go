package views

import (
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
)

// benchScenario has 5 nodes and 8 clients, with faults, so every panel and
// lane of the view has work to do.
const benchScenario = `version: 1
scenarios:
  - name: bench-5x8
    title: five nodes, eight clients
    duration: 2m
    redis: {nodes: 5}
    lock:
      key: lock:bench
      strategy: lua-release
      ttl: 10s
      fencing: token
      retry: {attempts: 50, delay: 500ms}
    clients:
      - {name: c1, holds: 3, work: 2s}
      - {name: c2, holds: 3, work: 2s, start: 100ms}
      - {name: c3, holds: 3, work: 2s, start: 200ms}
      - {name: c4, holds: 3, work: 2s, start: 300ms}
      - {name: c5, holds: 3, work: 2s, start: 400ms}
      - {name: c6, holds: 3, work: 2s, start: 500ms}
      - {name: c7, holds: 3, work: 2s, start: 600ms}
      - {name: c8, holds: 3, work: 2s, start: 700ms}
    faults:
      - {at: 1s, pause: {target: c1, for: 15s}}
      - {at: 20s, clock_jump: {target: redis-1, by: 8s}}
      - {at: 30s, isolate: {target: redis-2, for: 5s}}
`

func BenchmarkView(b *testing.B) {
	f, err := scenario.Load("bench.yaml", []byte(benchScenario))
	if err != nil {
		b.Fatal(err)
	}
	m, err := New(f, Config{Open: "bench-5x8", OutDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	m.finishBuild()
	m.Update(teaSize(200, 60))
	ss := m.Run().Player()
	ss.Seek((ss.Steps() + 1) / 2)
	m.Run().refresh()
	if n, c := len(m.Run().snap.Nodes), len(m.Run().snap.Clients); n != 5 || c != 8 {
		b.Fatalf("%d nodes, %d clients", n, c)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.View()
	}
}

// BenchmarkSnapshot is the per-move cost of copying the world.
func BenchmarkSnapshot(b *testing.B) {
	f, err := scenario.Load("bench.yaml", []byte(benchScenario))
	if err != nil {
		b.Fatal(err)
	}
	ss, err := player.Open(f.Scenarios[0], scenario.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	ss.Seek((ss.Steps() + 1) / 2)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = ss.Snapshot()
	}
}
