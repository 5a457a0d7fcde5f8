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

// make builds the tokens of holds h to h+n-1 in one allocation (of the
// size of n tokens as long as the last, so at most n bytes more than they
// need). Each token is the one before it with its number counted up in
// place (countUp): formatting every number and writing a token in three
// calls cost ~200 instructions a hold.
func (ts *holdTokens) make(name string, h, n int) {
	var sb strings.Builder
	sb.Grow(n * tokenLen(name, h+n-1))
	var buf [32]byte
	tok := strconv.AppendInt(append(append(buf[:0], name...), '-'), int64(h), 10)
	for range n {
		sb.Write(tok)
		tok = countUp(tok, len(name)+1)
	}
	ts.s, ts.next = sb.String(), h
}

// countUp counts up by one the decimal number that tok has after its first
// at bytes, in place: a carry past its first digit makes it one longer.
func countUp(tok []byte, at int) []byte {
	for i := len(tok) - 1; i >= at; i-- {
		if tok[i] != '9' {
			tok[i]++
			return tok
		}
		tok[i] = '0'
	}
	tok[at] = '1'
	return append(tok, '0')
}

// tokenLen is the length of hold h's token: NAME, '-', h's digits.
func tokenLen(name string, h int) int {
	n := len(name) + 2
	for ; h >= 10; h /= 10 {
		n++
	}
	return n
}
