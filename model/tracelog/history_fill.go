package tracelog

import (
	"fmt"

	"github.com/lockstep-sim/lockstep/model/judge"
)

// fill copies the kind-specific fields of a judge op into e.
func (h *History) fill(e *judge.Event) error {
	switch e.Kind {
	case judge.Command:
		op, ok := lockOp(h.LockOp)
		if !ok {
			return fmt.Errorf("lock_op %q: want acquire, release, renew or other", clip(h.LockOp))
		}
		if h.Before == nil || h.After == nil {
			return fmt.Errorf("op command needs before and after (did the lock key exist just before and right after)")
		}
		e.Op, e.Before, e.After = op, *h.Before, *h.After
	case judge.EnterCS, judge.AcquireFailed:
		if err := checkMS("wait_ms", h.WaitMS); err != nil {
			return err
		}
		e.Wait = msDur(h.WaitMS)
	case judge.ClientState:
		if h.Hold < 0 || h.Hold > 1<<31 {
			return fmt.Errorf("hold %d: must be 0..%d", h.Hold, 1<<31)
		}
		e.Note, e.Value = h.State, h.Hold
	case judge.ResourceDuplicate:
		e.Value = *h.Value
	case judge.ResourceWrite, judge.ResourceRead, judge.FailedOver, judge.Replicated:
		e.OK = h.OK == nil || *h.OK
		if h.Value != nil {
			e.Value = *h.Value
		}
	}
	if e.Kind >= judge.ClientClockJumped && e.Kind != judge.Command && e.Kind < judge.ResourceRead || e.Kind == judge.Final || e.Kind == judge.Replicated {
		return h.detail(e)
	}
	return nil
}

// detail fills the Detail of the rarer kinds.
func (h *History) detail(e *judge.Event) error {
	for _, f := range []struct {
		name string
		ms   float64
	}{{"by_ms", h.ByMS}, {"crashed_at_ms", h.CrashedAtMS}} {
		if err := checkMS(f.name, f.ms); err != nil {
			return err
		}
	}
	if h.Rate < 0 || h.Rate > 1e6 || h.Rate != h.Rate {
		return fmt.Errorf("rate %g: must be 0..1e6", h.Rate)
	}
	d := &judge.Detail{Other: h.Other, By: msDur(h.ByMS), Rate: h.Rate, Early: -1, Monotonic: h.Monotonic,
		Persistence: h.Persistence, CrashedAt: msDur(h.CrashedAtMS), Holding: h.Holding, Cut: h.Cut}
	if e.Kind == judge.Replicated {
		d.Token = h.Token
	}
	if h.EarlyMS != nil {
		if err := checkMS("early_ms", *h.EarlyMS); err != nil {
			return err
		}
		d.Early = msKey(*h.EarlyMS)
	}
	if len(h.Holding) > MaxNodes {
		return fmt.Errorf("holding names %d nodes: at most %d", len(h.Holding), MaxNodes)
	}
	e.Detail = d
	return nil
}

func lockOp(s string) (judge.Op, bool) {
	for op, name := range lockOps {
		if name == s {
			return judge.Op(op), true
		}
	}
	return 0, false
}

// friendly turns the friendlier ops into the judge's. It reports false for
// a record the judge does not read (acquire and release when the history
// has its own enter and leave records).
func (h *History) friendly(e judge.Event, implicitCS bool) (judge.Event, bool, error) {
	needNode := func() error {
		if h.Node == "" {
			return fmt.Errorf("op %s needs a node", h.Op)
		}
		return nil
	}
	switch h.Op {
	case OpAcquire, OpRelease:
		if h.Client == "" {
			return e, false, fmt.Errorf("op %s needs a client", h.Op)
		}
		if err := checkMS("wait_ms", h.WaitMS); err != nil {
			return e, false, err
		}
		e.Wait = msDur(h.WaitMS)
		switch {
		case h.Op == OpAcquire && h.OK != nil && !*h.OK:
			e.Kind = judge.AcquireFailed
		case !implicitCS:
			return e, false, nil
		case h.Op == OpAcquire:
			e.Kind = judge.EnterCS
		default:
			e.Kind = judge.LeaveCS
		}
		return e, true, nil
	case OpSet, OpDeleted, OpExpired:
		if err := needNode(); err != nil {
			return e, false, err
		}
		if h.Client == "" && h.Op != OpExpired {
			return e, false, fmt.Errorf("op %s needs a client (who ran the command)", h.Op)
		}
		return h.effect(e)
	case "":
		return e, false, fmt.Errorf("a record without an op")
	}
	return e, false, fmt.Errorf("unknown op %q (see docs/history-format.md)", clip(h.Op))
}

// effect is a node effect on the lock key as the judge's command event.
func (h *History) effect(e judge.Event) (judge.Event, bool, error) {
	e.Kind = judge.Command
	switch h.Op {
	case OpSet:
		e.Op, e.Before, e.After = judge.OpAcquire, h.Before != nil && *h.Before, true
		owner := h.Token
		if owner == "" && h.Key != nil {
			owner = h.Key.Owner
		}
		e.Key = judge.KeyState{Held: true, Owner: owner, TTL: -1, Expires: -1}
		if h.TTLMS != nil {
			if err := checkMS("ttl_ms", *h.TTLMS); err != nil || *h.TTLMS < 0 {
				return e, false, fmt.Errorf("ttl_ms %g: must be 0..%s", *h.TTLMS, MaxDuration)
			}
			e.Key.TTL, e.Key.Expires = msDur(*h.TTLMS), e.At+msDur(*h.TTLMS)
		}
	case OpDeleted:
		e.Op, e.Before, e.After = judge.OpRelease, true, false
	case OpExpired:
		e.Op, e.Before, e.After = judge.OpOther, false, false
	}
	return e, true, nil
}
