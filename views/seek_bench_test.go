package views

import (
	"math/rand/v2"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
)

// BenchmarkSeek is one backward seek, from the last step of the run to a
// random earlier one (seeded, so every run of the benchmark makes the same
// seeks), on the largest bundled scenario and on fair-fifo: what a user's
// goto or b costs at the end of a long run.
func BenchmarkSeek(b *testing.B) {
	for _, name := range []string{"counter-30x200", "fair-fifo"} {
		b.Run(name, func(b *testing.B) {
			ss := openSettled(b, name)
			last := ss.Steps()
			rng := rand.New(rand.NewPCG(1, 2))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				ss.Seek(last)
				_ = ss.Snapshot()
				ss.Settle() // the builder's rebuilds are not the seek's cost
				to := rng.IntN(last)
				b.StartTimer()
				ss.Seek(to)
				_ = ss.Snapshot()
			}
		})
	}
}

// BenchmarkBack is one b at the end of the run: the key a user holds.
func BenchmarkBack(b *testing.B) {
	for _, name := range []string{"counter-30x200", "fair-fifo"} {
		b.Run(name, func(b *testing.B) {
			ss := openSettled(b, name)
			last := ss.Steps()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				ss.Seek(last)
				_ = ss.Snapshot()
				ss.Settle()
				b.StartTimer()
				ss.Back()
				_ = ss.Snapshot()
			}
		})
	}
}

// openSettled opens the bundled scenario name with every checkpoint built,
// so that a benchmark times seeks, not the background builder.
func openSettled(b *testing.B, name string) *player.Player {
	b.Helper()
	s, err := bundled(b).Find(name)
	if err != nil {
		b.Fatal(err)
	}
	ss, err := player.Open(s, scenario.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(ss.Close)
	ss.Settle()
	return ss
}
