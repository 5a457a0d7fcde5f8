package model

import "time"

// Exists reports whether key is present on the node at true time now, by the
// node's own clock. It is the checker's look at ground truth: no command is
// run, nothing is logged. A down node has nothing.
func (n *Node) Exists(now time.Duration, key string) bool {
	if !n.up {
		return false
	}
	n.advance(now)
	return n.db().Exists(key)
}

// PTTL is key's remaining time to live by the node's expiry clock at true
// time now; -1 when it has no TTL, -2 when it does not exist (as Redis's PTTL,
// but as a Duration).
func (n *Node) PTTL(now time.Duration, key string) time.Duration {
	if !n.Exists(now, key) {
		return -2
	}
	ttl, ok := n.trueTTL(key)
	if !ok {
		return -1
	}
	return ttl
}

// lockValue is the lock key's owner token as stored: a string's value, or a
// reentrant lock hash's holder field. It only observes; call Exists first to
// bring the node to the present.
func (n *Node) lockValue(key string) string {
	if !n.up {
		return ""
	}
	return n.keyState(key).lockValue()
}

// lockValue is the owner token a lock key in state e holds (see
// Node.lockValue).
func (e Effect) lockValue() string {
	if e.Type == "hash" {
		for i := 0; i+1 < len(e.Fields); i += 2 {
			if e.Fields[i] == "holder" {
				return e.Fields[i+1]
			}
		}
	}
	return e.display()
}

// lastKeyState is the state of the key Do tracked right after the last
// command, if Do read it: what keyState would read now, at the same instant.
func (n *Node) lastKeyState() (Effect, bool) { return n.keyAfter, n.keyAfterOK }

// trackedState is key's state right after the command Do just ran: what Do
// read of it, or a read now when Do had no reason to (the command did not
// name it). The checker calls it at the same instant, so both are the same.
func (n *Node) trackedState(key string) Effect {
	if e, ok := n.lastKeyState(); ok && e.Key == key {
		return e
	}
	return n.keyState(key)
}

// pttl is what PTTL returns for a key in state e on n at the instant e was
// read: -2 deleted, -1 no TTL, else the time left by n's expiry clock.
func (e Effect) pttl(n *Node) time.Duration {
	switch {
	case e.Deleted:
		return -2
	case !e.Expires:
		return -1
	}
	return e.ExpireAt - n.lastE
}
