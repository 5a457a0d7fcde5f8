package sim

import (
	"math/rand/v2"
	"testing"
)

// The network's jitter draw must give exactly the numbers rand.Int64N gives
// on the same stream, or every trace would change: small and large bounds,
// powers of two, bounds so near 2^63 that most draws are rejected, and
// other draws (Float64, as a loss draw does) in between on the same source.
func TestUniformDrawsWhatInt64NDraws(t *testing.T) {
	bounds := []uint64{1, 2, 3, 7, 1 << 10, 20000, 20001, 1e9 + 7, 1<<62 + 1, 1<<63 - 1, 3 << 61}
	for _, n := range bounds {
		for seed := uint64(0); seed < 4; seed++ {
			want := rand.New(newSource(seed, "net"))
			src := newSource(seed, "net")
			got, other := newUniform(src, n), rand.New(src)
			for i := range 2000 {
				if w, g := want.Int64N(int64(n)), got.draw(); uint64(w) != g {
					t.Fatalf("n=%d seed=%d draw %d: %d, want %d", n, seed, i, g, w)
				}
				if i%7 == 0 && want.Float64() != other.Float64() {
					t.Fatalf("n=%d seed=%d draw %d: the shared source drifted", n, seed, i)
				}
			}
		}
	}
}
