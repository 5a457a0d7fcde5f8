package model

import (
	"strconv"
	"strings"

	"github.com/lockstep-sim/lockstep/model/redis"
)

// MasterName is the name of master k (numbered from 1): redis-K.
func MasterName(k int) string { return redis.MasterName(k) }

// ReplicaName is the name of master k's replica j: redis-K-rJ.
func ReplicaName(k, j int) string { return redis.ReplicaName(k, j) }

// SentinelName is the name of sentinel k: sentinel-K.
func SentinelName(k int) string { return redis.SentinelName(k) }

// holdTokens are a client's hold tokens, NAME-h, made tokenBatch holds at
// a time in one string that each token is a slice of: one allocation for
// a batch instead of one for every hold (a token lives on in the lock
// key's value and the judge's books, so it cannot reuse storage).
type holdTokens struct {
	next int    // the hold whose token starts s
	s    string // the tokens of holds next, next+1, ... back to back
}

// tokenBatch is how many holds' tokens holdTokens makes at once: a
// batch's string stays alive while one of its tokens does, so it is kept
// small (about 500 bytes for a name of a few letters).
const tokenBatch = 64

// of is the token of hold h of the client named name, which makes holds
// holds in all (a batch never goes past the last). Holds ask in turn; any
// other h starts a batch there.
func (ts *holdTokens) of(name string, h, holds int) string {
	if h != ts.next || ts.s == "" {
		ts.make(name, h, max(min(tokenBatch, holds-h+1), 1))
	}
	n := tokenLen(name, h)
	tok := ts.s[:n]
	ts.s, ts.next = ts.s[n:], h+1
	return tok
}

// make builds the tokens of holds h to h+n-1, in one allocation of their
// exact size.
func (ts *holdTokens) make(name string, h, n int) {
	size := 0
	for k := h; k < h+n; k++ {
		size += tokenLen(name, k)
	}
	var sb strings.Builder
	sb.Grow(size)
	var digits [20]byte
	for k := h; k < h+n; k++ {
		sb.WriteString(name)
		sb.WriteByte('-')
		sb.Write(strconv.AppendInt(digits[:0], int64(k), 10))
	}
	ts.s, ts.next = sb.String(), h
}

// tokenLen is the length of hold h's token: NAME, '-', h's digits.
func tokenLen(name string, h int) int {
	n := len(name) + 2
	for ; h >= 10; h /= 10 {
		n++
	}
	return n
}
