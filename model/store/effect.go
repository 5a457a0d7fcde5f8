package store

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Effect is the state of one key after a write, as the append-only log keeps
// it and as a master sends it to its replicas. It is the key's whole
// post-state rather than the command, so applying it is idempotent and a
// replica never re-runs a script.
type Effect struct {
	At      time.Duration // true time of the write on the node that made it
	Key     string
	Deleted bool   // the key no longer exists (DEL, expiry, a script's DEL)
	Type    string // "string", "hash", "list", "set", "zset"
	Value   string // for strings
	// Fields: hash field,value pairs sorted by field; list items in order;
	// set members sorted; zset member,score pairs sorted by member.
	Fields []string
	// ExpireAt is the absolute expiry by the writing node's expiry clock
	// (Redis >= 7 propagates expiry as an absolute PEXPIREAT); meaningful
	// only when Expires.
	ExpireAt time.Duration
	Expires  bool
	// Kind is what happened to the key; TTL what PTTL said right after
	// (-2 deleted, -1 no TTL), by the writing node's expiry clock. Both
	// describe the write and are not part of the key's state.
	Kind EffectKind
	TTL  time.Duration
}

// EffectKind is what a write did to a key.
type EffectKind uint8

// Effect kinds. The zero kind is a state that was not produced by a write
// (a snapshot, a replica's copy).
const (
	KeyRead    EffectKind = iota // a state as read, not a change
	KeySet                       // the key was created
	KeyChanged                   // an existing key got a new value or TTL
	KeyDeleted                   // a command deleted it
	KeyExpired                   // its expiry passed by the node's clock
)

// Owner is the owner token a lock key in state e holds: a string's value,
// or a reentrant lock hash's holder field. By pointer: an Effect is ~120
// bytes and the judge reads an owner on every grant.
func (e *Effect) Owner() string {
	if e.Type == "hash" {
		for i := 0; i+1 < len(e.Fields); i += 2 {
			if e.Fields[i] == "holder" {
				return e.Fields[i+1]
			}
		}
	}
	return e.display()
}

// SameState reports whether two states of the same key are equal (At
// aside). By pointer, as Owner: exec compares a pair on every write.
func (e *Effect) SameState(o *Effect) bool {
	return e.Deleted == o.Deleted && e.Type == o.Type && e.Value == o.Value &&
		e.Expires == o.Expires && (!e.Expires || e.ExpireAt == o.ExpireAt) &&
		slices.Equal(e.Fields, o.Fields)
}

// display is the value in KeyInfo form. By pointer, as Owner, which
// calls it on every grant.
func (e *Effect) display() string {
	switch e.Type {
	case "string":
		return e.Value
	case "hash", "zset":
		var b strings.Builder
		for i := 0; i+1 < len(e.Fields); i += 2 {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(e.Fields[i])
			b.WriteByte('=')
			b.WriteString(e.Fields[i+1])
		}
		return b.String()
	case "list", "set":
		return strings.Join(e.Fields, " ")
	}
	return e.Value
}

// String is the effect for a trace: `lock:x = "A:1" expires@30.001s`,
// `lock:x deleted`.
func (e Effect) String() string {
	if e.Deleted {
		return e.Key + " deleted"
	}
	s := fmt.Sprintf("%s = %q", e.Key, e.display())
	if e.Type != "string" {
		s += " (" + e.Type + ")"
	}
	if e.Expires {
		s += " expires@" + e.ExpireAt.String()
	}
	return s
}
