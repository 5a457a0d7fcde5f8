package store

import (
	"math"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// Bounds for store.minExpire.
const (
	noExpiry         = time.Duration(math.MaxInt64) // no key has a TTL
	minExpireUnknown = time.Duration(math.MinInt64) // rescan on the next advance
)

// Expiry is a key that a clock fault made expire, for the trace:
// "lock:x expired 19.1s early".
type Expiry struct {
	Key   string
	Early time.Duration // TTL it still had by the node's clock when the jump removed it
}

// ExpiryClock is the reading Redis compares key expiry with: the wall clock
// (real Redis), or the monotonic one with `clock: monotonic`.
func (s *Store) ExpiryClock(now time.Duration) time.Duration {
	if s.monotonic {
		return s.clock.Mono(now)
	}
	return s.clock.Wall(now)
}

// Advance brings the Store to true time now. miniredis keeps TTLs as
// durations that only FastForward decreases, while Redis keeps absolute
// expiry times and compares them with its clock; keeping every TTL equal to
// (absolute expiry - expiry clock) makes the two agree:
//   - the clock moved forward by d (time passing at any rate, or a forward
//     wall jump): every TTL shrinks by d;
//   - the clock moved back by d (backward wall jump): every TTL grows by d.
//
// TIME, PXAT and EXAT follow the wall clock in both modes. It returns the
// keys that expired, with the TTL they had left; their deletions are
// effects (Redis propagates a DEL when a key expires).
func (s *Store) Advance(now time.Duration) []Expiry {
	// A node is usually advanced several times at the same instant (the
	// checker's look before a command, the command, the look after); only
	// tell miniredis the time when it changed.
	wall := s.clock.Wall(now)
	if wall != s.lastWall {
		s.lastWall, s.timeOwed = wall, true // told by tellTime
	}
	e := wall // ExpiryClock(now), the wall read once
	if s.monotonic {
		e = s.clock.Mono(now)
	}
	d := e - s.lastE
	s.lastE = e
	switch {
	case d > 0:
		return s.forward(now, d)
	case d < 0:
		s.backward(-d)
	}
	return nil
}

// tellTime tells miniredis the wall reading of the last advance, if it has
// not been told yet (see Store.timeOwed): before any call into miniredis
// but delKeys's deletions (db and mini call it). Small enough to inline:
// db is called several times a command, and told once.
func (s *Store) tellTime() {
	if s.timeOwed {
		s.sendTime()
	}
}

// sendTime is tellTime's SetTime.
func (s *Store) sendTime() {
	s.m.SetTime(Epoch.Add(s.lastWall))
	s.timeOwed = false
}

// mini is the miniredis instance, told the time of the last advance.
func (s *Store) mini() *miniredis.Miniredis {
	s.tellTime()
	return s.m
}

// forward runs the expiry clock d > 0 ahead. Keys whose TTL is below d
// expire. Keys whose TTL is exactly d reach their expiry instant, where
// Redis still has them; they get 1ns extra so miniredis keeps them, and are
// marked as edge keys (true TTL 0) until the clock moves on.
func (s *Store) forward(now, d time.Duration) []Expiry {
	if s.lastE < s.minExpire {
		// Every key expires after the new reading: nothing to expire and
		// no edge key (an edge key's expiry is the old reading, below the
		// bound), so skip listing and sorting the keys. Telling miniredis
		// can wait too (see lag), unless a hash field may have a TTL of
		// its own, which the bound does not cover.
		if s.fieldTTLs {
			s.mini().FastForward(d)
		} else {
			s.lag += d
		}
		s.edge = nil
		return nil
	}
	s.syncTTLs()
	s.fast.ForgetString() // keys may expire or become edge keys
	m := s.mini()
	var expired []Expiry
	least := noExpiry // the exact bound after this advance
	var edge map[string]bool
	for _, k := range m.Keys() {
		ttl, ok := s.TTL(k)
		if !ok {
			continue
		}
		switch {
		case ttl < d:
			expired = append(expired, Expiry{Key: k, Early: ttl})
			continue
		case ttl == d:
			m.SetTTL(k, d+1)
			if edge == nil {
				edge = map[string]bool{}
			}
			edge[k] = true
		}
		// s.lastE is already the new reading, d past the TTLs' base.
		least = min(least, s.lastE+ttl-d)
	}
	m.FastForward(d)
	s.edge = edge
	s.minExpire = least
	for _, x := range expired {
		s.record(now, KeyExpired, &Effect{Key: x.Key, Deleted: true})
	}
	return expired
}

// backward moves the expiry clock back by b > 0: the absolute expiry of
// every key (and hash field) stays where it was, so its TTL grows by b.
// SetTTL bumps the key's version, so a WATCH across a backward jump fails
// where Redis would let it pass; no lock recipe here uses WATCH.
func (s *Store) backward(b time.Duration) {
	s.syncTTLs()
	s.fast.ForgetString()
	m := s.mini()
	for _, k := range m.Keys() {
		if ttl, ok := s.TTL(k); ok {
			m.SetTTL(k, ttl+b)
		}
		if m.Type(k) == "hash" {
			fields, _ := m.HKeys(k)
			for _, f := range fields {
				if ft := m.HTTL(k, f); ft > 0 {
					m.HExpire(k, f, ft+b)
				}
			}
		}
	}
	s.edge = nil
}

// TTL is key k's remaining time by the expiry clock, and whether it has
// one at all (miniredis reports 0 for "no TTL"; a stored TTL is never 0,
// since miniredis deletes the key then). An edge key stored with 1ns has
// true TTL 0.
func (s *Store) TTL(k string) (time.Duration, bool) { return s.trueTTLIn(s.db(), k) }

// trueTTLIn is trueTTL with the DB already in hand.
func (s *Store) trueTTLIn(db *miniredis.RedisDB, k string) (time.Duration, bool) {
	t := db.TTL(k)
	if t <= 0 {
		return 0, false
	}
	t -= s.lag
	if t == 1 && s.edge[k] {
		return 0, true
	}
	return t, true
}

// syncTTLs tells miniredis the time its TTLs lag behind (see store.lag).
// Called before anything else writes a TTL or runs a command in miniredis.
// No key expires here: while lag grows every key expires after the reading
// it was grown to, so FastForward(lag) at once leaves miniredis exactly as
// the FastForward of each step would have.
func (s *Store) syncTTLs() {
	if s.lag != 0 {
		if s.seeded || len(s.db0.Keys()) > 0 {
			s.mini().FastForward(s.lag)
		}
		// Else miniredis dispatched nothing (seeded), so only the fast
		// path's direct calls wrote, to DB 0, which is empty: no TTL to
		// shorten, and FastForward (a range over every DB, the keys
		// listed and sorted) would change nothing. The fast path's SET NX
		// PX of a free lock, after its release, is this case.
		s.lag = 0
	}
}

// setTTL gives key k (which must exist) a true TTL of ttl >= 0.
func (s *Store) setTTL(k string, ttl time.Duration) {
	s.syncTTLs()
	s.minExpire = min(s.minExpire, s.lastE+ttl)
	if ttl == 0 {
		s.mini().SetTTL(k, 1)
		if s.edge == nil {
			s.edge = map[string]bool{}
		}
		s.edge[k] = true
		return
	}
	s.mini().SetTTL(k, ttl)
	delete(s.edge, k)
}

// PTTL is what PTTL returns for a key in state e at the instant e was
// read: -2 deleted, -1 no TTL, else the time left by the expiry clock.
func (s *Store) PTTL(e Effect) time.Duration { return s.pttl(&e) }

// pttl is PTTL by pointer: record calls it on every effect, and an Effect
// is ~120 bytes.
func (s *Store) pttl(e *Effect) time.Duration {
	switch {
	case e.Deleted:
		return -2
	case !e.Expires:
		return -1
	}
	return e.ExpireAt - s.lastE
}
