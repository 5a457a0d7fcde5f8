package store

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// Epoch is the instant a node's wall reading 0 stands for: TIME, PXAT and
// EXAT see Epoch plus the node's wall reading, so they are deterministic.
var Epoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// RedisError is an error reply from Redis, holding its message exactly as
// Redis sends it ("NOSCRIPT ...", "LOADING ...", "READONLY ...").
type RedisError string

func (e RedisError) Error() string { return string(e) }

// The error replies the node itself produces (rather than miniredis).
const (
	ErrLoading  = RedisError("LOADING Redis is loading the dataset in memory")
	errReadOnly = RedisError("READONLY You can't write against a read only replica.")
	// errNoReplicas is shared.noreplicaserr (min-replicas-to-write).
	errNoReplicas = RedisError("NOREPLICAS Not enough good replicas to write.")
)

// KeyInfo is one key as the node holds it, for display.
type KeyInfo struct {
	Key   string
	Type  string        // "string", "hash", "list", "set", "zset"
	Value string        // string value; "field=val ..." for hashes (sorted by field); items for lists and sets; "member=score ..." for sorted sets
	TTL   time.Duration // remaining by this node's clock; -1 for none
}

// Keys lists the keys alive at true time now, sorted by key, without
// advancing (see Node.Keys).
func (s *Store) Keys(now time.Duration) []KeyInfo {
	states := s.View(now)
	e := s.ExpiryClock(now)
	out := make([]KeyInfo, 0, len(states))
	for _, st := range states {
		ki := KeyInfo{Key: st.Key, Type: st.Type, Value: st.display(), TTL: -1}
		if st.Expires {
			ki.TTL = st.ExpireAt - e
		}
		out = append(out, ki)
	}
	return out
}

// View is every key's state as it stands at true time now, without
// advancing: absolute expiries are fixed, so a key is alive iff its expiry is
// not before the expiry clock's reading at now.
func (s *Store) View(now time.Duration) []Effect {
	e := s.ExpiryClock(now)
	var out []Effect
	for _, k := range s.mini().Keys() {
		st := s.KeyState(k)
		if st.Deleted || (st.Expires && st.ExpireAt < e) {
			continue
		}
		st.At = now
		out = append(out, st)
	}
	return out
}

// KeyState reads key k's current state, with its absolute expiry by the
// node's expiry clock.
func (s *Store) KeyState(k string) Effect {
	db := s.db()
	e := Effect{Key: k}
	// Lock keys are strings: one Get answers type and value at once, and
	// only another type needs the Type lookup (each is a round of
	// miniredis's lock).
	v, err := db.Get(k)
	switch {
	case err == nil:
		e.Type, e.Value = "string", v
	case err == miniredis.ErrKeyNotFound:
		e.Deleted = true
		return e
	default:
		e.Type = db.Type(k)
		readCollection(db, &e)
	}
	if ttl, ok := s.trueTTLIn(db, k); ok {
		e.Expires = true
		e.ExpireAt = s.lastE + ttl
	}
	return e
}

// readCollection fills in the value of key e.Key of type e.Type other than
// a string.
func readCollection(db *miniredis.RedisDB, e *Effect) {
	k := e.Key
	switch e.Type {
	case "hash":
		fields, _ := db.HKeys(k) // sorted
		for _, f := range fields {
			e.Fields = append(e.Fields, f, db.HGet(k, f))
		}
	case "list":
		e.Fields, _ = db.List(k)
	case "set":
		e.Fields, _ = db.Members(k) // sorted
	case "zset":
		scores, _ := db.SortedSet(k)
		members := make([]string, 0, len(scores))
		for mb := range scores {
			members = append(members, mb)
		}
		sort.Strings(members) // map order must not reach the trace
		for _, mb := range members {
			e.Fields = append(e.Fields, mb, strconv.FormatFloat(scores[mb], 'g', -1, 64))
		}
	default:
		// Streams and HyperLogLogs are not used by any lock recipe; they are
		// shown but not persisted or replicated.
		e.Value = "(" + e.Type + ")"
	}
}

// db is the database the data lives in: DB 0, which is what miniredis's
// direct API means too (the model never calls its Select). Holding on to
// it spares every read a lookup under miniredis's lock; only SWAPDB
// replaces it (see refreshDB). miniredis is told the time first (tellTime).
func (s *Store) db() *miniredis.RedisDB {
	s.tellTime()
	return s.db0
}

// refreshDB looks DB 0 up again after a command that may have run SWAPDB:
// SWAPDB itself, EXEC (it may be queued) or a script run in Lua.
func (s *Store) refreshDB(cmd string) {
	switch cmd {
	case "SWAPDB", "EXEC", "EVAL", "EVALSHA":
		if !s.fastDone {
			s.db0 = s.mini().DB(0)
		}
	}
}

// WriteState makes key e.Key hold e's value with e's absolute expiry (if
// any): what restart, replication and full resync do, never a client
// command. A state already expired by this Store's clock deletes the key
// instead; it reports whether the key now holds e.
func (s *Store) WriteState(e Effect) bool {
	s.syncTTLs() // a key created while TTLs lag must not be forwarded by the lag
	s.fast.ForgetString()
	k := e.Key
	m := s.mini()
	m.Del(k)
	delete(s.edge, k)
	ttl := e.ExpireAt - s.lastE
	if e.Deleted || (e.Expires && ttl < 0) {
		return false
	}
	switch e.Type {
	case "string":
		_ = m.Set(k, e.Value)
	case "hash":
		m.HSet(k, e.Fields...)
	case "list":
		_, _ = m.Push(k, e.Fields...)
	case "set":
		_, _ = m.SetAdd(k, e.Fields...)
	case "zset":
		for i := 0; i+1 < len(e.Fields); i += 2 {
			score, _ := strconv.ParseFloat(e.Fields[i+1], 64)
			_, _ = m.ZAdd(k, score, e.Fields[i])
		}
	default:
		return true
	}
	if e.Expires {
		s.setTTL(k, ttl)
	}
	return true
}

// Flush empties the Store (a full resync replaces everything).
func (s *Store) Flush() {
	s.fast.ForgetString()
	s.mini().FlushAll()
	s.edge = nil
}

// IsNoReplicas reports whether err is a NOREPLICAS refusal, given to a plain
// write or raised by the write inside a script.
// Small enough to inline, so the common nil costs its caller (the world,
// after every command) no call.
func IsNoReplicas(err error) bool { return err != nil && isNoReplicas(err) }

func isNoReplicas(err error) bool {
	e, ok := err.(RedisError)
	return ok && strings.Contains(string(e), "NOREPLICAS")
}
