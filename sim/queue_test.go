package sim

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"
)

// The 4-ary heap with pooled events and eager Stop must run exactly the
// events not stopped, in (time, scheduling order), like a sorted list would.
func TestQueueOrderWithStopsAndReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	k := NewKernel(1)
	type item struct {
		at  time.Duration
		seq int
	}
	var want, got []item
	var timers []Timer
	var items []item
	seq := 0
	schedule := func() {
		seq++
		it := item{k.Now() + time.Duration(r.IntN(50))*time.Millisecond, seq}
		items = append(items, it)
		timers = append(timers, k.At(it.at, func() { got = append(got, it) }))
	}
	for range 200 {
		schedule()
	}
	stopped := map[int]bool{}
	for step := 0; step < 5000; step++ {
		switch op := r.IntN(10); {
		case op < 4:
			schedule()
		case op < 6 && len(timers) > 0:
			i := r.IntN(len(timers))
			// A stale timer (its event ran or was stopped, and may have been
			// reused since) must report false and cancel nothing.
			ran := false
			for _, g := range got {
				ran = ran || g.seq == items[i].seq
			}
			ok := timers[i].Stop()
			if ok == (ran || stopped[items[i].seq]) {
				t.Fatalf("Stop of item %d = %v, ran %v, stopped before %v", items[i].seq, ok, ran, stopped[items[i].seq])
			}
			if ok {
				stopped[items[i].seq] = true
			}
		default:
			k.Step()
		}
	}
	for k.Step() {
	}
	for _, it := range items {
		if !stopped[it.seq] {
			want = append(want, it)
		}
	}
	// Every event ran at or after the time it was scheduled for; since
	// scheduling happened while time advanced, compare as a multiset and
	// check the order of what ran.
	if len(got) != len(want) {
		t.Fatalf("%d events ran, want %d", len(got), len(want))
	}
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		if a.at > b.at || (a.at == b.at && a.seq > b.seq) {
			t.Fatalf("event %v ran before %v", a, b)
		}
	}
	sort.Slice(want, func(i, j int) bool { return want[i].seq < want[j].seq })
	gs := append([]item(nil), got...)
	sort.Slice(gs, func(i, j int) bool { return gs[i].seq < gs[j].seq })
	for i := range want {
		if gs[i] != want[i] {
			t.Fatalf("ran %v, want %v", gs[i], want[i])
		}
	}
}

// The trace hash is XXH64 over "<at ns>|<proc>|<kind>|<msg>\n" per event,
// the lines fmt.Fprintf would write: anyone can recompute it from a trace.
func TestTraceHashDefinition(t *testing.T) {
	k := NewKernel(1)
	h := xxhash.New()
	emit := func(at time.Duration, proc, kind, msg string) {
		k.RunUntil(at)
		k.Emit(proc, kind, "%s", msg)
		fmt.Fprintf(h, "%d|%s|%s|%s\n", at, proc, kind, msg)
	}
	emit(0, "A", "cmd", "A: SET k v NX PX 2000 => \"OK\"")
	emit(1500*time.Microsecond, "redis-1", "x", "")
	emit(31*time.Second+2*time.Millisecond, "sim", "end", "ünïcode 100%")
	if k.Trace().Hash() != h.Sum64() {
		t.Fatalf("hash %x, want %x", k.Trace().Hash(), h.Sum64())
	}
}

// Emit's shortcuts (no verbs, a lone %s) give what fmt.Sprintf gives.
func TestEmitFormatsLikeSprintf(t *testing.T) {
	type named string
	cases := []struct {
		format string
		args   []any
	}{
		{"plain", nil}, {"100%%", nil}, {"%s", nil}, {"%s", []any{"x"}}, {"%s", []any{named("y")}},
		{"%s", []any{3}}, {"%d-%s", []any{1, "a"}}, {"%s", []any{"a", "b"}},
	}
	for _, c := range cases {
		k := NewKernel(1)
		var got string
		k.Trace().Subscribe(func(e Event) { got = e.Msg })
		k.Emit("p", "k", c.format, c.args...)
		if want := fmt.Sprintf(c.format, c.args...); got != want {
			t.Errorf("Emit(%q, %v) = %q, want %q", c.format, c.args, got, want)
		}
	}
}

// entry.before, a borrow of a 128-bit subtraction, must be the order of
// (at, seq) compared field by field, for every time a queue can hold
// (0 up to Never) and for equal times, where seq decides.
func TestEntryBeforeIsTimeThenSeq(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	times := []time.Duration{0, 1, time.Microsecond, time.Second, Never - 1, Never}
	seqs := []uint64{0, 1, 2, 1 << 32, 1<<63 + 5, ^uint64(0)}
	pick := func() entry {
		if r.IntN(3) == 0 {
			return entry{at: time.Duration(r.Int64N(int64(Never))), seq: r.Uint64()}
		}
		return entry{at: times[r.IntN(len(times))], seq: seqs[r.IntN(len(seqs))]}
	}
	for range 20000 {
		a, b := pick(), pick()
		want := a.at < b.at || (a.at == b.at && a.seq < b.seq)
		if got := a.before(&b); got != want {
			t.Fatalf("(%d,%d).before(%d,%d) = %v, want %v", a.at, a.seq, b.at, b.seq, got, want)
		}
	}
}

// The queue (its next slot and its two heaps) must give out entries
// exactly as a sorted list of (at, seq) would, through a schedule like a
// run's: most pushes at the front (a reply right after its request),
// messages a little behind, timers far behind (timeouts, most of them
// removed again), removals of any queued entry, the front one included.
func TestQueueMatchesSortedList(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 5))
	var q eventQueue
	var ref []*event // the queued events, in no order
	at := map[*event]time.Duration{}
	now, seq := time.Duration(0), uint64(0)
	net := &Network{}
	push := func(d time.Duration) {
		seq++
		ev := &event{seq: seq}
		if r.IntN(2) == 0 {
			ev.net = net // a message: the other heap
		}
		at[ev] = now + d
		ref = append(ref, ev)
		q.push(entry{now + d, seq, ev})
	}
	earliest := func() int {
		m := 0
		for i, ev := range ref {
			if at[ev] < at[ref[m]] || (at[ev] == at[ref[m]] && ev.seq < ref[m].seq) {
				m = i
			}
		}
		return m
	}
	for step := range 100000 {
		switch op := r.IntN(10); {
		case op < 3:
			push(time.Duration(r.IntN(3)) * time.Microsecond) // at the front, or tied with it
		case op < 4:
			push(time.Duration(r.IntN(70)) * time.Microsecond)
		case op < 5:
			push(time.Duration(r.IntN(1000)) * time.Millisecond)
		case op < 7 && len(ref) > 0:
			i := r.IntN(len(ref))
			if r.IntN(2) == 0 {
				i = earliest()
			}
			q.remove(ref[i])
			if ref[i].idx != notQueued {
				t.Fatalf("step %d: a removed event has idx %d", step, ref[i].idx)
			}
			ref = append(ref[:i], ref[i+1:]...)
		case len(ref) > 0:
			i := earliest()
			f := q.first()
			if f.ev != ref[i] {
				t.Fatalf("step %d: first is seq %d, want %d", step, f.seq, ref[i].seq)
			}
			e := q.pop(f)
			e.ev.idx = notQueued // as Kernel.run does
			if e.ev != ref[i] || e.at != at[ref[i]] {
				t.Fatalf("step %d: popped seq %d at %v (idx %d), want seq %d at %v",
					step, e.seq, e.at, e.ev.idx, ref[i].seq, at[ref[i]])
			}
			now = e.at
			ref = append(ref[:i], ref[i+1:]...)
		}
		if q.Len() != len(ref) {
			t.Fatalf("step %d: Len %d, want %d", step, q.Len(), len(ref))
		}
	}
}
