package resource

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// host records the trace lines.
type host struct {
	lines []string
}

func (h *host) Tapped() bool                   { return false }
func (h *host) Line() []byte                   { return nil }
func (h *host) EmitLine(p, k string, b []byte) { h.lines = append(h.lines, k+": "+string(b)) }
func (h *host) Emit(p, k, f string, a ...any) {
	h.lines = append(h.lines, k+": "+fmt.Sprintf(f, a...))
}
func (h *host) Tell(p, k, id string, a ...sim.Arg) {
	s, _ := tracemsg.Render(id, a)
	h.lines = append(h.lines, k+": "+s)
}
func (h *host) Say(p, k, _ string, _ []sim.Arg, f string, a ...any) { h.Emit(p, k, f, a...) }
func (h *host) SayLine(p, k, _ string, b []byte, _ ...sim.Arg)      { h.EmitLine(p, k, b) }

// kernel is a kernel whose trace is read (it has a sink), so the resource
// builds every line for host to record.
func kernel() *sim.Kernel {
	k := sim.NewKernel(1)
	k.Trace().Subscribe(func(sim.Event) {})
	return k
}

// Kleppmann's window: with tokens checked on writes only, a stale write
// between the newer holder's read and write is accepted; checked on reads
// too, it is refused.
func TestWritesOnly(t *testing.T) {
	for _, writesOnly := range []bool{true, false} {
		r := New(&host{}, kernel(), Config{Fencing: "token", WritesOnly: writesOnly})
		old, fresh := Request{Client: "A", Hold: 1, Fence: 33}, Request{Client: "B", Hold: 1, Fence: 34}
		r.Read(old)
		r.Read(fresh)
		r.Write(old, 1)
		if got := r.Accepted() == 1; got != writesOnly {
			t.Errorf("writes only %v: the stale write accepted %v", writesOnly, got)
		}
	}
}

// A job's second write is refused as a duplicate, a new job's is not, and
// named resources keep counters of their own.
func TestIdempotencyAndNamed(t *testing.T) {
	h := &host{}
	r := New(h, kernel(), Config{Idempotency: IdempotencyJob})
	r.Write(Request{Client: "A", Hold: 1}, 1)
	r.Write(Request{Client: "B", Hold: 1}, 1)
	r.Write(Request{Client: "B", Hold: 2}, 2)
	if r.Accepted() != 2 || r.Duplicates() != 1 || r.Value != 2 {
		t.Errorf("accepted %d duplicates %d value %d", r.Accepted(), r.Duplicates(), r.Value)
	}
	if !strings.Contains(strings.Join(h.lines, "\n"), "write 1 by B for job-1 refused: A wrote job-1 already") {
		t.Errorf("trace:\n%s", strings.Join(h.lines, "\n"))
	}
	n := New(&host{}, kernel(), Config{})
	n.Write(Request{Client: "A", Resource: "s1"}, 5)
	n.Write(Request{Client: "B", Resource: "s2"}, 7)
	if v, _ := n.Read(Request{Client: "C", Resource: "s1"}); v != 5 || n.Value != 0 || n.Total() != 12 {
		t.Errorf("s1 = %d, unnamed %d, total %d", v, n.Value, n.Total())
	}
}

// Each request leaves the judge one event at most, handed over once.
func TestEventHandedOverOnce(t *testing.T) {
	r := New(&host{}, kernel(), Config{Fencing: "token"})
	r.Write(Request{Client: "A", Fence: 2}, 1)
	if e, ok := r.Event(); !ok || e.Kind != judge.ResourceWrite || !e.OK || e.Value != 1 {
		t.Fatalf("event %+v, %v", e, ok)
	}
	if _, ok := r.Event(); ok {
		t.Error("the event was handed over twice")
	}
	r.Read(Request{Client: "B", Fence: 1}) // refused: 2 was seen
	if e, ok := r.Event(); !ok || e.Kind != judge.ResourceRead || e.OK {
		t.Errorf("refused read's event %+v, %v", e, ok)
	}
	r.Read(Request{Client: "A", Fence: 2}) // admitted, nobody taps: no event
	if _, ok := r.Event(); ok {
		t.Error("an untapped admitted read left an event")
	}
}
