package sim

import (
	"hash/fnv"
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
	h := fnv.New64a()
	h.Write([]byte(purpose))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}
