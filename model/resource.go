package model

import (
	"strconv"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/sim"
)

// Resource is the shared thing the lock protects: a counter that holders
// read at the start of their work and write (value+1) at its end, over the
// network.
//
// With fencing: token it remembers the highest token seen on any read or
// write and refuses a request carrying a lower one (Kleppmann's storage
// service). An equal token is admitted, since a holder reads and writes with
// the same one; so two grants that carry the same token (Redlock's max of
// per-node INCRs after a node forgot its counter) are not told apart.
//
// With fencing: cas it needs no token from the lock (antirez's reply to
// Kleppmann): a read stamps the resource with the lease's random token, and
// the write is applied only if the stamp is still that token, a
// compare-and-set. A second holder's read replaces the stamp, so the first
// holder's late write is refused.
type Resource struct {
	w        *World
	fencing  string
	Value    int64
	MaxToken int64
	Stamp    string  // fencing: cas — the token of the last read; "" before any
	Writes   []Write // recent write requests, in order: the last KeptWrites at least, fewer than 2×KeptWrites
	accepted int64
	rejected int64
	maxOwner string                     // the client that last carried MaxToken, to point out shared tokens
	calls    sim.FreeList[resourceCall] // finished requests, for reuse (resource_call.go)
}

// Write is one write request as the resource saw it.
type Write struct {
	At       int64 // true time in ns
	Client   string
	Token    int64
	Value    int64
	Accepted bool
}

func newResource(w *World, fencing string) *Resource { return &Resource{w: w, fencing: fencing} }

// Accepted is the number of writes the resource applied.
func (r *Resource) Accepted() int64 { return r.accepted }

// Rejected is the number of requests refused for a stale fencing token.
func (r *Resource) Rejected() int64 { return r.rejected }

func (r *Resource) fenced(l *Lease) bool { return r.fencing == "token" && l.Fence > 0 }

// cas reports whether the resource checks stamps (fencing: cas).
func (r *Resource) cas() bool { return r.fencing == "cas" }

// admit applies the token fencing rule to a request carrying l's token by
// client c.
func (r *Resource) admit(c *Client, l *Lease) bool {
	if !r.fenced(l) {
		return true
	}
	if l.Fence < r.MaxToken {
		return false
	}
	if l.Fence == r.MaxToken && r.maxOwner != "" && r.maxOwner != c.Name {
		r.w.Emit(ResourceName, "same-token", "%s carries token %d, which %s carried too: the resource cannot order them",
			c.Name, l.Fence, r.maxOwner)
	}
	r.MaxToken, r.maxOwner = l.Fence, c.Name
	return true
}

// stampOK is the cas rule for a write: the stamp is still the writer's.
func (r *Resource) stampOK(l *Lease) bool { return !r.cas() || r.Stamp == l.Token }

// read fetches the counter; false when refused or unreachable.
func (r *Resource) read(t *Thread, l *Lease) (int64, bool) {
	c := t.c
	rc := r.newCall(c, l, 0)
	reply, err := t.rpc(ResourceName, r.w.Cfg.Lock.Timeout, rc.read)
	if err != nil {
		r.w.Emit(c.Name, "abort", "read of the resource failed (%v); the hold is abandoned", err)
		return 0, false
	}
	rr := reply.(*resourceCall)
	value, ok := rr.value, rr.ok
	r.calls.Put(rr)
	if !ok {
		r.w.Emit(c.Name, "abort", "the resource refused token %d; the hold is abandoned", l.Fence)
	}
	return value, ok
}

// serveRead is a read arriving at the resource.
func (r *Resource) serveRead(c *Client, l *Lease) (int64, bool) {
	if !r.admit(c, l) {
		r.rejected++
		r.w.feed(&judge.Event{Kind: judge.ResourceRead, Client: c.Name})
		r.w.Emit(ResourceName, "rejected", "read by %s with token %d refused: token %d already seen", c.Name, l.Fence, r.MaxToken)
		return 0, false
	}
	if r.w.tap != nil { // an admitted read changes nothing the judge counts
		r.w.feed(&judge.Event{Kind: judge.ResourceRead, Client: c.Name, OK: true})
	}
	if r.cas() {
		r.Stamp = l.Token
		r.w.Emit(ResourceName, "read", "%s read counter = %d and stamped it %s", c.Name, r.Value, l.Token)
		return r.Value, true
	}
	b := append(r.w.line(), c.Name...)
	b = strconv.AppendInt(append(b, " read counter = "...), r.Value, 10)
	r.w.emitLine(ResourceName, "read", appendTokenNote(b, l))
	return r.Value, true
}

// KeptWrites is how many recent write requests the resource remembers for
// display; a long run's memory must not grow with its length.
const KeptWrites = 64

// record remembers a write request, forgetting the oldest beyond KeptWrites.
func (r *Resource) record(wr Write) {
	if len(r.Writes) >= 2*KeptWrites {
		n := copy(r.Writes, r.Writes[len(r.Writes)-KeptWrites+1:])
		r.Writes = r.Writes[:n]
	}
	r.Writes = append(r.Writes, wr)
}

// write stores v as the new counter value.
func (r *Resource) write(t *Thread, l *Lease, v int64) {
	c := t.c
	rc := r.newCall(c, l, v)
	_, err := t.rpc(ResourceName, r.w.Cfg.Lock.Timeout, rc.write)
	if err != nil {
		r.w.Emit(c.Name, "abort", "write to the resource failed (%v)", err)
		return
	}
	r.calls.Put(rc)
}

// serveWrite is a write of v arriving at the resource.
func (r *Resource) serveWrite(c *Client, l *Lease, v int64) {
	wr := Write{At: int64(r.w.Now()), Client: c.Name, Token: l.Fence, Value: v}
	if !r.stampOK(l) {
		r.rejected++
		r.record(wr)
		r.w.feed(&judge.Event{Kind: judge.ResourceWrite, Client: c.Name, Value: v})
		r.w.Emit(ResourceName, "rejected", "write %d by %s refused: the stamp is %s, not %s (someone read since)", v, c.Name, r.Stamp, l.Token)
		return
	}
	if !r.admit(c, l) {
		r.rejected++
		r.record(wr)
		r.w.feed(&judge.Event{Kind: judge.ResourceWrite, Client: c.Name, Value: v})
		r.w.Emit(ResourceName, "rejected", "write %d by %s with token %d refused: token %d already seen", v, c.Name, l.Fence, r.MaxToken)
		return
	}
	wr.Accepted = true
	r.record(wr)
	old := r.Value
	r.Value = v
	r.accepted++
	r.w.feed(&judge.Event{Kind: judge.ResourceWrite, Client: c.Name, Value: v, OK: true})
	b := append(r.w.line(), c.Name...)
	b = strconv.AppendInt(append(b, " wrote counter = "...), v, 10)
	b = appendTokenNote(b, l)
	if v <= old {
		b = strconv.AppendInt(append(b, " (it was "...), old, 10)
		b = append(b, ": an update is lost)"...)
	}
	r.w.emitLine(ResourceName, "write", b)
}

func appendTokenNote(b []byte, l *Lease) []byte {
	if l.Fence > 0 {
		b = strconv.AppendInt(append(b, " [token "...), l.Fence, 10)
		b = append(b, ']')
	}
	return b
}
