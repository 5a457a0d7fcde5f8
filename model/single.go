package model

import (
	"time"

	"github.com/lockstep-sim/lockstep/model/store"
)

// single is the single-instance family of the seeds, from the naive V1 to
// the Lua-released lock, with the reentrant, fair and fencing variants.
type single struct {
	cfg  LockConfig
	kind string
	ttl  string // cfg.TTL as a command argument, formatted once (see ttlArg)
}

// ttlArg is the lock's TTL in milliseconds as a command argument.
func (s *single) ttlArg() string {
	if s.ttl == "" {
		s.ttl = msArg(s.cfg.TTL)
	}
	return s.ttl
}

func (s *single) Name() string               { return s.kind }
func (s *single) Quorum(*World) int          { return 1 }
func (s *single) LockNodes(w *World) []*Node { return []*Node{w.Shards[0].Master} }

func (s *single) node(t *Thread) *Node { return t.master(0) }

// Acquire is one attempt, as each recipe writes it.
func (s *single) Acquire(t *Thread, l *Lease) bool {
	n, key, ttl := s.node(t), s.cfg.Key, s.ttlArg()
	l.Nodes = append(l.Nodes[:0], n) // a retried lease's storage (Client.retry)
	l.Until = l.Start + s.cfg.TTL
	switch {
	case s.kind == StrategySetnxDel:
		// V1: SETNX alone; a crashed holder's key never expires.
		r, err := t.Call(n, OpAcquire, "SETNX", key, l.Token)
		l.Until = -1
		return err == nil && r == 1
	case s.kind == StrategySetnxExpire:
		// V2: SETNX then EXPIRE, two round trips; a crash between them
		// leaves a key without TTL.
		r, err := t.Call(n, OpAcquire, "SETNX", key, l.Token)
		if err != nil || r != 1 {
			return false
		}
		t.Call(n, OpRenew, "PEXPIRE", key, ttl)
		return true
	case s.cfg.Reentrant:
		r, err := t.Call(n, OpAcquire, "EVAL", store.ScriptReentrantAcquire, "1", key, l.Token, ttl)
		return err == nil && r == 1
	case s.cfg.Fair:
		wait := s.placeTimeout()
		r, err := t.Call(n, OpAcquire, "EVAL", store.ScriptFairAcquire, "3", key, key+":queue", key+":timeouts",
			l.Token, ttl, msArg(t.Wall()+fairEpoch), msArg(wait))
		return err == nil && r == 1
	case s.cfg.Fencing == "token":
		r, err := t.Call(n, OpAcquire, "EVAL", store.ScriptFencedAcquire, "2", key, key+":fence", l.Token, ttl)
		f, ok := r.(int)
		if err != nil || !ok {
			return false
		}
		l.Fence = int64(f)
		return true
	default:
		// V3 and later: one atomic SET with NX and PX.
		r, err := t.Call(n, OpAcquire, "SET", key, l.Token, "NX", "PX", ttl)
		return err == nil && r != nil
	}
}

// fairEpoch puts the fair lock's client timestamps in a plausible range of
// Unix milliseconds; only differences matter.
const fairEpoch = 1_767_225_600 * time.Second // 2026-01-01T00:00:00Z

// placeTimeout is how long a fair-lock waiter keeps its place without
// retrying: Redisson uses 5 s; longer when the retry delays are longer.
func (s *single) placeTimeout() time.Duration {
	d := 5 * time.Second
	if r := s.cfg.Retry; r != nil && 3*r.MaxDelay > d {
		d = 3 * r.MaxDelay
	}
	if r := s.cfg.Retry; r != nil && 3*r.Delay > d {
		d = 3 * r.Delay
	}
	return d
}

// Release gives the lock back: a blind DEL for V1–V3, a check-and-delete
// script from lua-release on.
func (s *single) Release(t *Thread, l *Lease) {
	n, key := s.node(t), s.cfg.Key
	switch {
	case s.kind != StrategyLuaRelease:
		t.Call(n, OpRelease, "DEL", key)
	case s.cfg.Reentrant:
		t.Call(n, OpRelease, "EVAL", store.ScriptReentrantRelease, "1", key, l.Token)
	default:
		t.Call(n, OpRelease, "EVAL", store.ScriptRelease, "1", key, l.Token)
	}
}

// Renew is the watchdog's check-and-PEXPIRE.
func (s *single) Renew(t *Thread, l *Lease) bool {
	n, key, ttl := s.node(t), s.cfg.Key, s.ttlArg()
	start := t.Wall()
	script := store.ScriptRenew
	if s.cfg.Reentrant {
		script = store.ScriptReentrantRenew
	}
	r, err := t.Call(n, OpRenew, "EVAL", script, "1", key, l.Token, ttl)
	if err != nil || r != 1 {
		return false
	}
	l.Until = start + s.cfg.TTL
	return true
}
