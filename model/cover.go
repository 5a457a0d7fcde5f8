package model

import (
	"math"
	"slices"
	"time"
)

// Cover is the faults of one kind that cover one target now (the pauses of
// client A, the crashes of redis-1): faults of one kind nest, so the target
// is under the fault while any of them covers it, and leaves it only when
// the last one ends. The faults package asks it, at each start and end,
// whether that start or end changes anything.
type Cover struct {
	ends []time.Duration // the true end time of each fault on, in start order
}

// Forever is the end of a fault that never ends by itself (a crash without
// restart_after).
const Forever = time.Duration(math.MaxInt64)

// Begin counts a fault on until true time end. first reports whether the
// target was free of the kind before; if not, until is when the faults
// already on end (the latest of their ends).
func (c *Cover) Begin(end time.Duration) (first bool, until time.Duration) {
	until = c.Until()
	first = len(c.ends) == 0
	c.ends = append(c.ends, end)
	return first, until
}

// End takes off one fault that was to end at end. last reports whether no
// fault of the kind covers the target any more; if one does, until is when
// the last of those ends.
func (c *Cover) End(end time.Duration) (last bool, until time.Duration) {
	if i := slices.Index(c.ends, end); i >= 0 {
		c.ends = slices.Delete(c.ends, i, i+1)
	}
	return len(c.ends) == 0, c.Until()
}

// On reports whether any fault of the kind covers the target.
func (c *Cover) On() bool { return len(c.ends) > 0 }

// Until is when the last fault on ends (Forever if one never does); 0 when
// none is on.
func (c *Cover) Until() time.Duration {
	var u time.Duration
	for _, e := range c.ends {
		u = max(u, e)
	}
	return u
}

// Cover is the cover of faults of kind on target in this world, created
// empty on first use.
func (w *World) Cover(kind, target string) *Cover {
	key := kind + "\x00" + target
	c := w.covers[key]
	if c == nil {
		if w.covers == nil {
			w.covers = map[string]*Cover{}
		}
		c = &Cover{}
		w.covers[key] = c
	}
	return c
}
