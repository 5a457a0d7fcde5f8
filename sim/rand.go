package sim

import (
	"hash/fnv"
	"math/bits"
	"math/rand/v2"
)

// Rand returns a random stream for one purpose ("net", "retry/A", "tokens"),
// derived from the kernel's seed and the purpose's name alone. Independent
// streams mean that adding a random draw for one purpose never shifts the
// draws of another, so a small change to a scenario changes little else.
// Each call returns a fresh stream starting from the beginning; callers keep
// the one they get.
func (k *Kernel) Rand(purpose string) *rand.Rand {
	return NewRand(k.seed, purpose)
}

// NewRand is the stream Rand returns, for code that has a seed but no kernel.
func NewRand(seed uint64, purpose string) *rand.Rand {
	return rand.New(newSource(seed, purpose))
}

// newSource is the generator under NewRand's stream for purpose.
func newSource(seed uint64, purpose string) *rand.PCG {
	h := fnv.New64a()
	h.Write([]byte(purpose))
	return rand.NewPCG(seed, h.Sum64())
}

// uniform draws integers in [0, n) from a PCG exactly as rand.Rand.Int64N(n)
// does on a 64-bit machine (math/rand/v2's uint64n: Lemire's multiply and
// rejection), so the numbers are the same, without Rand's two calls and
// its interface call into the source for each draw: the network draws a
// jitter for every message. The threshold's division is made once.
type uniform struct {
	src    *rand.PCG
	n      uint64 // > 0
	thresh uint64 // 2^64 mod n: a low half below it is rejected
}

func newUniform(src *rand.PCG, n uint64) uniform {
	return uniform{src: src, n: n, thresh: -n % n}
}

// draw is the next number in [0, n).
func (u *uniform) draw() uint64 {
	if u.n&(u.n-1) == 0 { // a power of two: rand masks
		return u.src.Uint64() & (u.n - 1)
	}
	hi, lo := bits.Mul64(u.src.Uint64(), u.n)
	if lo < u.n { // rand tests against n first, to spare the division
		for lo < u.thresh {
			hi, lo = bits.Mul64(u.src.Uint64(), u.n)
		}
	}
	return hi
}
