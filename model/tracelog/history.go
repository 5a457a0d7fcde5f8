package tracelog

import (
	"fmt"
	"time"

	"github.com/lockstep-sim/lockstep/model/judge"
)

// History is one history record: an event the judge reads, in a spelling
// any language can write (docs/history-format.md). Times are milliseconds
// of true time (the time of the system being judged, not any one client's
// clock). Which fields matter depends on Op.
type History struct {
	Type string  `json:"type,omitempty"` // "history" (optional in a history file)
	AtMS float64 `json:"at_ms"`
	// AtNS is the same time exactly, in nanoseconds; a trace writes it, a
	// reader prefers it to at_ms when it is there.
	AtNS int64  `json:"at_ns,omitempty"`
	Op   string `json:"op"`
	// Event (in a trace) is the seq of the trace event this record goes
	// with: the one just written when it happened in the same instant of
	// the simulation, else the next one. A trace player shows the record's
	// effect from that event on.
	Event int `json:"event,omitempty"`

	Client string  `json:"client,omitempty"`
	Node   string  `json:"node,omitempty"`
	Token  string  `json:"token,omitempty"`
	Value  *int64  `json:"value,omitempty"`
	OK     *bool   `json:"ok,omitempty"`
	WaitMS float64 `json:"wait_ms,omitempty"`

	// command: what it means to the lock, and whether the lock key existed
	// just before and right after it ran on Node.
	LockOp string `json:"lock_op,omitempty"`
	Before *bool  `json:"before,omitempty"`
	After  *bool  `json:"after,omitempty"`
	Note   string `json:"note,omitempty"`
	// Key is the lock key on Node right after the event, when known.
	Key *Key `json:"key,omitempty"`
	// set: the lock key's TTL in milliseconds (by the node's clock); absent:
	// no expiry.
	TTLMS *float64 `json:"ttl_ms,omitempty"`

	Other       string   `json:"other,omitempty"`
	ByMS        float64  `json:"by_ms,omitempty"`
	Rate        float64  `json:"rate,omitempty"`
	EarlyMS     *float64 `json:"early_ms,omitempty"`
	Monotonic   bool     `json:"monotonic,omitempty"`
	Persistence string   `json:"persistence,omitempty"`
	CrashedAtMS float64  `json:"crashed_at_ms,omitempty"`
	Holding     []string `json:"holding,omitempty"`
	// failed_over: the old master is up but cut off from the promoted one.
	Cut bool `json:"cut,omitempty"`
	// state: the client's state and the hold it is in (not judged).
	State string `json:"state,omitempty"`
	Hold  int64  `json:"hold,omitempty"`
}

// Key is the lock key's state on a node.
type Key struct {
	Held  bool   `json:"held"`
	Owner string `json:"owner,omitempty"` // the value: the owner's token
	// TTLMS is the PTTL by the node's clock: -1 no expiry, -2 missing.
	TTLMS float64 `json:"ttl_ms"`
	// ExpiresMS is the true time it expires if nothing changes; -1 never.
	ExpiresMS float64 `json:"expires_ms"`
}

// kindOps names every judge kind in a history ("op").
var kindOps = [...]string{
	judge.AcquireFailed: "acquire_failed", judge.NestedFailed: "nested_failed",
	judge.EnterCS: "enter", judge.Working: "working", judge.LeaveCS: "leave",
	judge.Crashed: "crashed", judge.Paused: "paused", judge.Resumed: "resumed",
	judge.Hung: "hung", judge.Unhung: "unhung",
	judge.ClientClockJumped: "client_clock_jumped", judge.ClientClockRate: "client_clock_rate",
	judge.CutOff: "cut_off", judge.Reconnected: "reconnected",
	judge.Command: "command", judge.Restarted: "restarted", judge.FailedOver: "failed_over",
	judge.Resynced: "resynced", judge.NodeClockJumped: "node_clock_jumped",
	judge.NodeClockRate: "node_clock_rate",
	judge.ResourceRead:  "read", judge.ResourceWrite: "write", judge.Final: "final",
	judge.Replicated: "replicated", judge.Releasing: "releasing",
	judge.WriteRefused: "write_refused", judge.Evicted: "evicted",
	judge.ClientState:       "state",
	judge.ResourceDuplicate: "duplicate_write", judge.Deadlock: "deadlock",
}

var lockOps = [...]string{judge.OpOther: "other", judge.OpAcquire: "acquire", judge.OpRelease: "release", judge.OpRenew: "renew"}

// Ops are the friendlier spellings a hand-written history may use beside
// the judge's own (see Judge).
const (
	OpAcquire = "acquire" // the client's lock call returned (ok: false = it failed)
	OpRelease = "release" // the client's unlock call returned
	OpSet     = "set"     // the lock key was created on node, owner token, ttl_ms
	OpDeleted = "deleted" // client deleted the lock key on node
	OpExpired = "expired" // the lock key expired on node
)

// FromJudge is the history record of a judge event. The key's state is
// written when the event carries it (a live run reads it only when the
// judge needs it).
func FromJudge(e *judge.Event) History {
	h := History{Type: TypeHistory, AtMS: durMS(e.At), Client: e.Client, Node: e.Node, Note: e.Note}
	if int(e.Kind) < len(kindOps) {
		h.Op = kindOps[e.Kind]
	}
	switch e.Kind {
	case judge.Command:
		h.LockOp, h.Before, h.After = lockOps[e.Op], ptr(e.Before), ptr(e.After)
	case judge.FailedOver, judge.ResourceRead, judge.ResourceWrite, judge.Replicated:
		h.OK = ptr(e.OK)
	case judge.EnterCS, judge.AcquireFailed:
		h.WaitMS = durMS(e.Wait)
	}
	switch e.Kind {
	case judge.ResourceWrite, judge.ResourceDuplicate:
		h.Value = ptr(e.Value)
	case judge.ClientState:
		h.State, h.Hold, h.Note = e.Note, e.Value, ""
	}
	if e.KeyKnown {
		h.Key = &Key{Held: e.Key.Held, Owner: e.Key.Owner, TTLMS: durMS(e.Key.TTL), ExpiresMS: durMS(e.Key.Expires)}
	}
	if d := e.Detail; d != nil {
		h.Other, h.ByMS, h.Rate, h.Monotonic = d.Other, durMS(d.By), d.Rate, d.Monotonic
		h.Persistence, h.CrashedAtMS, h.Holding = d.Persistence, durMS(d.CrashedAt), d.Holding
		h.Cut = d.Cut
		if e.Kind == judge.Replicated {
			h.Token = d.Token
		}
		if e.Kind == judge.NodeClockJumped {
			h.EarlyMS = ptr(durMS(d.Early))
		}
	}
	return h
}

// durMS is a duration in milliseconds. The codes judge.KeyState uses in
// TTL and Expires, -1 ns (none, never) and -2 ns (missing), are written as
// -1 and -2, as PTTL spells them.
func durMS(d time.Duration) float64 {
	if d == -1 || d == -2 {
		return float64(d)
	}
	return float64(d) / float64(time.Millisecond)
}

// msKey is durMS's inverse for the sentinels.
func msKey(ms float64) time.Duration {
	if ms == -1 || ms == -2 {
		return time.Duration(ms)
	}
	return msDur(ms)
}

func ptr[T any](v T) *T { return &v }

// Judge is the judge event of a history record; friendly ops (acquire,
// release, set, deleted, expired) become the judge's own. implicitCS: the
// history has no enter or leave records, so a successful acquire enters the
// critical section and a release leaves it. The event always carries the
// lock key's state (KeyKnown): a recorded history has no node to ask.
func (h *History) Judge(implicitCS bool) (judge.Event, bool, error) {
	if err := checkMS("at_ms", h.AtMS); err != nil {
		return judge.Event{}, false, err
	}
	at := msDur(h.AtMS)
	if h.AtNS != 0 {
		if h.AtNS < 0 || time.Duration(h.AtNS) > MaxDuration {
			return judge.Event{}, false, fmt.Errorf("at_ns %d: must be within 0..%d", h.AtNS, int64(MaxDuration))
		}
		at = time.Duration(h.AtNS)
	}
	e := judge.Event{At: at, Client: h.Client, Node: h.Node, Note: h.Note, KeyKnown: true,
		Key: judge.KeyState{TTL: -2, Expires: -1}}
	if h.Key != nil {
		e.Key = judge.KeyState{Held: h.Key.Held, Owner: h.Key.Owner, TTL: msKey(h.Key.TTLMS), Expires: msKey(h.Key.ExpiresMS)}
	}
	k, ok := opKind(h.Op)
	if !ok {
		return h.friendly(e, implicitCS)
	}
	e.Kind = k
	if err := h.need(k); err != nil {
		return e, false, err
	}
	if err := h.fill(&e); err != nil {
		return e, false, err
	}
	return e, true, nil
}

func opKind(op string) (judge.Kind, bool) {
	for k, name := range kindOps {
		if name != "" && name == op {
			return judge.Kind(k), true
		}
	}
	return 0, false
}

// need checks the fields a kind cannot do without.
func (h *History) need(k judge.Kind) error {
	if k == judge.Final {
		return nil
	}
	if clientKind(k) && h.Client == "" {
		return fmt.Errorf("op %s needs a client", h.Op)
	}
	if nodeKind(k) && h.Node == "" {
		return fmt.Errorf("op %s needs a node", h.Op)
	}
	if (k == judge.FailedOver || k == judge.Resynced || k == judge.Replicated) && h.Other == "" {
		return fmt.Errorf("op %s needs other (the other node)", h.Op)
	}
	if (k == judge.ResourceWrite || k == judge.ResourceDuplicate) && h.Value == nil {
		return fmt.Errorf("op %s needs a value", h.Op)
	}
	return nil
}

// clientKind reports whether a record of kind k names a client.
func clientKind(k judge.Kind) bool {
	switch k {
	case judge.Releasing, judge.WriteRefused, judge.ClientState, judge.ResourceDuplicate, judge.Deadlock:
		return true
	}
	return k <= judge.Reconnected || k >= judge.ResourceRead && k < judge.Final
}

// nodeKind reports whether a record of kind k names a node.
func nodeKind(k judge.Kind) bool {
	switch k {
	case judge.Replicated, judge.WriteRefused, judge.Evicted:
		return true
	}
	return k >= judge.CutOff && k <= judge.NodeClockRate
}
