package redis

import "time"

// Exists reports whether key is present on the node at true time now, by the
// node's own clock. It is the checker's look at ground truth: no command is
// run, nothing is logged. A down node has nothing.
func (n *Node) Exists(now time.Duration, key string) bool {
	if !n.up {
		return false
	}
	n.advance(now)
	return n.st.Exists(key)
}

// PTTL is key's remaining time to live by the node's expiry clock at true
// time now; -1 when it has no TTL, -2 when it does not exist (as Redis's PTTL,
// but as a Duration).
func (n *Node) PTTL(now time.Duration, key string) time.Duration {
	if !n.Exists(now, key) {
		return -2
	}
	ttl, ok := n.st.TTL(key)
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
	e := n.KeyState(key)
	return e.Owner()
}

// TrackedState is key's state right after the command Do just ran: what Do
// read of it, or a read now when Do had no reason to (the command did not
// name it). The checker calls it at the same instant, so both are the same.
func (n *Node) TrackedState(key string) Effect {
	if e, ok := n.st.LastKeyState(); ok && e.Key == key {
		return e
	}
	return n.KeyState(key)
}

// TrackedRef is TrackedState without copying the Effect when Do read it
// (the judge asks on every grant); nil: Do did not, read KeyState.
func (n *Node) TrackedRef(key string) *Effect {
	if e := n.st.LastKeyStateRef(); e != nil && e.Key == key {
		return e
	}
	return nil
}

// PTTLOf is what PTTL returns for a key in state e read on n at this instant.
func (n *Node) PTTLOf(e Effect) time.Duration { return n.st.PTTL(e) }

// ReplacedAt is when a failover replaced this node as master (see Stale).
func (n *Node) ReplacedAt() time.Duration { return n.replacedAt }

// CrashedAt is the node's last crash, for explanations.
func (n *Node) CrashedAt() time.Duration { return n.crashedAt }
