package redis

import (
	"sort"
	"time"
)

// everysecWindow is how much an everysec node loses on a crash: the writes
// of the last second, not yet fsynced.
const everysecWindow = time.Second

// appendLog is the node's append-only file, kept compact: durable is the
// materialised state of every entry that can no longer be lost, tail the
// entries of the last second that an everysec crash would lose. Memory is
// bounded by the live keys plus one second of writes.
type appendLog struct {
	mode    string
	durable map[string]Effect
	tail    []Effect // in write order, so also in At order
}

// append logs one effect (a key's post-state, or its deletion).
func (a *appendLog) append(e Effect) {
	switch a.mode {
	case PersistAlways:
		a.fold(e)
	case PersistEverysec:
		a.tail = append(a.tail, e)
		a.settle(e.At)
	}
}

// settle moves into durable every tail entry written at or before
// now - 1s: whatever the crash time c >= now, it satisfies At <= c - 1s.
func (a *appendLog) settle(now time.Duration) {
	i := 0
	for i < len(a.tail) && a.tail[i].At <= now-everysecWindow {
		a.fold(a.tail[i])
		i++
	}
	if i > 0 {
		k := copy(a.tail, a.tail[i:])
		clear(a.tail[k:]) // drop references held by the unused part
		a.tail = a.tail[:k]
	}
}

func (a *appendLog) fold(e Effect) {
	if e.Deleted {
		delete(a.durable, e.Key)
		return
	}
	if a.durable == nil {
		a.durable = map[string]Effect{}
	}
	a.durable[e.Key] = e
}

// crash keeps what survives a crash at true time now: everything (always),
// everything but the last second (everysec), nothing (none).
func (a *appendLog) crash(now time.Duration) {
	if a.mode == PersistEverysec {
		a.settle(now)
	}
	a.tail = nil
	if a.mode == PersistNone {
		a.durable = nil
	}
}

// reset replaces the log with a full state (after a full resync).
func (a *appendLog) reset(state []Effect) {
	a.durable, a.tail = nil, nil
	if a.mode == PersistNone {
		return
	}
	for _, e := range state {
		a.fold(e)
	}
}

// entries is the durable state sorted by key.
func (a *appendLog) entries() []Effect {
	keys := make([]string, 0, len(a.durable))
	for k := range a.durable {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Effect, len(keys))
	for i, k := range keys {
		out[i] = a.durable[k]
	}
	return out
}

// Crash stops the node at true time now: it answers nothing (ErrDown) until
// Restart, and loses what its persistence mode does not keep. Its clock keeps
// running.
func (n *Node) Crash(now time.Duration) {
	if !n.up {
		return
	}
	n.aof.crash(now)
	n.up = false
	n.outbox = nil
	n.st.Close()
}

// Restart brings a node back at true time now with what its log kept (a
// running node is crashed first). Keys whose absolute expiry passed while it
// was down are gone: expiry is judged by the node's own clock, which kept
// running. For RestartDelay it answers every command with -LOADING.
func (n *Node) Restart(now time.Duration) {
	if n.up {
		n.Crash(now)
	}
	n.boot(now)
	n.loadingUntil = now + n.cfg.RestartDelay
	for _, e := range n.aof.entries() {
		if !n.st.WriteState(e) {
			delete(n.aof.durable, e.Key) // expired while down: as if the DEL was logged
		}
	}
}
