package store

import (
	"fmt"
	"reflect"
)

// A write the fast path makes itself often knows the key's state right
// after it: SET NX PX of an absent key is a string with that value expiring
// TTL from now; DEL leaves nothing. diff then takes that state instead of
// reading the key back from miniredis (a Get, a TTL and a map update of
// miniredis's LRU clock, each under its lock): the store's typed effect,
// known at the write. Any other write to the data forgets it (forgetPost):
// the other plain writes, and every command miniredis dispatches (preHook),
// from a client or from a script's twin.

// verifyKnownPost makes postState check every known state against what
// KeyState reads, and panic on a difference (set by the store's tests).
var verifyKnownPost = false

// knowPost is where the caller writes the state of a key right after the
// running command's last write to it (*s.knowPost() = Effect{...}): in
// place, since an Effect passed by value would be built, then copied.
func (s *Store) knowPost() *Effect {
	s.cmd.knownOK = true
	return &s.cmd.known
}

// forgetPost forgets the known state: the data changed some other way.
// The state itself stays where it is: postState asks knownOK first, and
// clearing ~120 bytes on every command cost more than the strings it
// would let go (they are the client's arguments, alive anyway).
func (s *Store) forgetPost() { s.cmd.knownOK = false }

// The fast path remembers the string its last SET NX PX wrote, across
// commands, so that the owner's release needs no GET (fastpath's
// KnownString); the store tells it whenever the data may have changed
// (Path.ForgetString): at the start of every write (capturePreKnowing,
// which every write of the fast path and every dispatch calls first), for
// every command miniredis dispatches (preHook), on expiry and clock jumps
// (forward's scan, backward), and in WriteState and Flush.

// verifyKnownString panics unless the fast path's known string, if any, is
// what miniredis holds: the store's tests call it around every command
// (its GET sets the key's LRU clock, which no test reads).
func (s *Store) verifyKnownString() {
	key, value, ok := s.fast.KnownString()
	if !ok {
		return
	}
	if v, err := s.db0.Get(key); err != nil || v != value {
		panic(fmt.Sprintf("store: known string %q of %q, but it reads %q (%v)", value, key, v, err))
	}
}

// postState is key k's state after the running command: the known one if
// the command's last write was to k, else read from miniredis (into
// s.cmd.read). By pointer, valid until the next postState: an Effect is
// ~120 bytes, and diff only reads it.
func (s *Store) postState(k string) *Effect {
	if verifyKnownPost && s.cmd.knownOK && s.cmd.one && s.cmd.known.Key != k {
		panic(fmt.Sprintf("store: known state of %q, but the one touched key is %q", s.cmd.known.Key, k))
	}
	if !s.cmd.knownOK || s.cmd.known.Key != k {
		s.cmd.read = s.KeyState(k)
		return &s.cmd.read
	}
	if verifyKnownPost {
		if got := s.KeyState(k); !reflect.DeepEqual(got, s.cmd.known) {
			panic(fmt.Sprintf("store: known state %+v of %q, but it reads %+v", s.cmd.known, k, got))
		}
	}
	return &s.cmd.known
}
