package store

import "github.com/lockstep-sim/lockstep/model/store/fastpath"

// What the differential and conformance tests of the node (package model)
// look at: which path answered, the reply's bytes, the scripts the fast
// path knows. Nothing in a run reads them.

// Script is one of the project's Lua scripts that the fast path answers
// with a Go twin.
type Script = fastpath.Script

// Scripts lists the scripts with a Go twin, in a fixed order.
func Scripts() []Script { return fastpath.Scripts() }

// FastAnswered reports whether the fast path answered the last command
// (rather than miniredis's dispatcher or its Lua).
func (s *Store) FastAnswered() bool { return s.fastDone }

// DropExpiryBound forgets the lower bound on every key's expiry, so the
// next advance scans every key as if the bound had never been kept.
func (s *Store) DropExpiryBound() { s.minExpire = minExpireUnknown }

// LastReply is the last reply on conn as sent, until its next command (nil
// if conn never reached the store).
func (s *Store) LastReply(conn string) []byte {
	c := s.conns[conn]
	switch {
	case c == nil:
		return nil
	case c.fastOK:
		c.scratch = c.fast.AppendRESP(c.scratch[:0])
		return c.scratch
	}
	return c.raw
}
