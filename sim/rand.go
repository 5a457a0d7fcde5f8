package sim

import (
	"hash/fnv"
	"math"
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
// does on a 64-bit machine (math/rand/v2's uint64n: a mask for a power of
// two, else Lemire's multiply and rejection), so the numbers are the same,
// without Rand's two calls and its interface call into the source for
// each draw: the network draws a jitter for every message. The threshold's
// division is made once.
type uniform struct {
	src    *rand.PCG
	n      uint64 // > 0
	thresh uint64 // 2^64 mod n: a low half below it is rejected
	// recheck is the low half below which fit calls again: n, which rand
	// tests first to spare the division, or, for a power of two, which
	// rand masks instead, every low half (MaxUint64).
	recheck uint64
}

func newUniform(src *rand.PCG, n uint64) uniform {
	u := uniform{src: src, n: n, thresh: -n % n, recheck: n}
	if n&(n-1) == 0 {
		u.recheck = math.MaxUint64
	}
	return u
}

// draw is the next number in [0, n).
func (u *uniform) draw() uint64 { return u.fit(u.src.Uint64()) }

// fit is the number in [0, n) that x, the source's next number, gives.
// It is small enough to be inlined, with the PCG's step, where draw is
// not: Network.sendEvent draws a message's jitter as
// fit(src.Uint64()), which spares every message a call and the spills
// around it. What is rare (a power of two, a rejection) is out of line.
func (u *uniform) fit(x uint64) uint64 {
	hi, lo := bits.Mul64(x, u.n)
	if lo < u.recheck {
		return u.again(x)
	}
	return hi
}

// again is fit for a power of two, or for an x whose low half is below
// n, which rand rejects while it is below the threshold, drawing again.
//
//go:noinline
func (u *uniform) again(x uint64) uint64 {
	if u.n&(u.n-1) == 0 {
		return x & (u.n - 1)
	}
	hi, lo := bits.Mul64(x, u.n)
	for lo < u.thresh {
		hi, lo = bits.Mul64(u.src.Uint64(), u.n)
	}
	return hi
}
