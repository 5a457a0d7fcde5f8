package store

import (
	"time"

	"github.com/alicebob/miniredis/v2"
)

// fastHost is the Store as the fast path (package fastpath) sees it: its
// DB 0 and the bookkeeping each write of the fast path must keep (the
// touched keys' states before the command, miniredis's TTLs brought up to
// date, the known state after it). A type of its own, so that these stay
// off the Store's API.
type fastHost Store

func (h *fastHost) DB() *miniredis.RedisDB { return (*Store)(h).db() }

func (h *fastHost) Writing() { (*Store)(h).capturePreKnowing(nil) }

func (h *fastHost) WritingAbsent(key string) { (*Store)(h).capturePreOne(key) }

func (h *fastHost) Dispatching() {
	s := (*Store)(h)
	s.capturePre()
	s.syncTTLs()
	s.tellTime()
}

// SetTTL stores ttl plus the lag: a true TTL is miniredis's minus the lag
// (trueTTLIn), and syncTTLs, which would otherwise have to come first, is
// a FastForward over every DB (or a listing of DB 0's keys) on every SET
// NX PX of a free lock.
func (h *fastHost) SetTTL(key string, ttl time.Duration) { h.DB().SetTTL(key, ttl+h.lag) }

func (h *fastHost) WroteUnknown() {
	s := (*Store)(h)
	s.forgetPost()
	s.fast.ForgetString()
}

func (h *fastHost) WroteString(key, value string, ttl time.Duration) {
	*(*Store)(h).knowPost() = Effect{Key: key, Type: "string", Value: value, Expires: true, ExpireAt: h.lastE + ttl}
}

func (h *fastHost) Del(keys []string) int { return (*Store)(h).delKeys(keys) }

func (h *fastHost) DelKey(key string) bool { return (*Store)(h).delKey(key) }
