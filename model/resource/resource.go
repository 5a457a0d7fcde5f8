// Package resource is the shared thing the locks protect: a counter that
// holders read at the start of their work and write (value+1) at its end,
// over the network, and the protections it can apply to what reaches it —
// the fencing token (on every request or on writes only), the cas stamp,
// the idempotency key. It runs the requests that arrive; sending them
// (the RPC, the timeout, the client's abort) is package model's.
package resource

import (
	"strconv"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/sim"
)

// Name is the resource's process name on the network.
const Name = "resource"

// Host is the world around the resource: the trace. The judge's event of
// a request is not fed through it but kept (Event): a pointer handed
// through an interface would cost an allocation per request. The clock,
// and whether anyone reads a line, are the kernel's (New), asked without
// an interface call on every request.
type Host interface {
	// Tapped: someone records the judge's history, so even the events the
	// judge ignores are kept.
	Tapped() bool
	Emit(proc, kind, format string, args ...any)
	// Tell is a line of message id, its text rendered from the catalogue
	// (model/tracemsg).
	Tell(proc, kind, id string, args ...sim.Arg)
	// Say is Emit with a message id and its arguments (a trace reader
	// rebuilds the resource panel from the writes' ids).
	Say(proc, kind, id string, args []sim.Arg, format string, a ...any)
	// Line and EmitLine are the trace's reused buffer for the hottest lines;
	// SayLine is EmitLine with a message id and its arguments (the hot
	// lines pass Resource.args, reused: a fresh slice through an interface
	// call would cost an allocation per request). The hot lines ask the
	// kernel first whether anyone reads them (sim.Kernel.Unread), and
	// build nothing if not.
	Line() []byte
	EmitLine(proc, kind string, b []byte)
	SayLine(proc, kind, id string, b []byte, args ...sim.Arg)
}

// Config is how the resource checks what reaches it. The zero value checks
// nothing (fencing none).
type Config struct {
	Fencing     string // none | token | cas
	WritesOnly  bool   // fencing: token checked on writes only (Kleppmann's storage)
	Idempotency string // "" | none | job
}

// Request is what one read or write carries from its client.
type Request struct {
	Client   string
	Hold     int    // the client's hold, 1-based: its job with idempotency: job
	Resource string // the named resource it works on; "": the one counter
	Fence    int64  // fencing token; 0 when fencing is off
	Token    string // the lease's random token (the cas stamp)
}

// Resource is the counter and its books.
//
// With fencing: token it remembers the highest token seen on any read or
// write (on writes only with WritesOnly) and refuses a request carrying a
// lower one (Kleppmann's storage service). An equal token is admitted,
// since a holder reads and writes with the same one; so two grants that
// carry the same token (Redlock's max of per-node INCRs after a node forgot
// its counter) are not told apart.
//
// With fencing: cas it needs no token from the lock (antirez's reply to
// Kleppmann): a read stamps the resource with the lease's random token, and
// the write is applied only if the stamp is still that token, a
// compare-and-set. A second holder's read replaces the stamp, so the first
// holder's late write is refused.
type Resource struct {
	h        Host
	k        *sim.Kernel // the clock, and who reads the trace (Unread)
	cfg      Config
	Value    int64
	MaxToken int64
	Stamp    string  // fencing: cas — the token of the last read; "" before any
	Writes   []Write // recent write requests, in order: the last KeptWrites at least, fewer than 2×KeptWrites
	accepted int64
	rejected int64
	maxOwner string // the client that last carried MaxToken, to point out shared tokens

	jobs       map[int]string // idempotency: job — which client wrote each job first
	duplicates int64          // writes refused for a job written already

	named map[string]int64 // the counters of named resources; Value is the unnamed one's

	args []sim.Arg // reused: a read line's message arguments (no allocation per read)

	ev    judge.Event // the judge's event of the request just served (Event)
	hasEv bool
}

// feed keeps the judge's event of the request being served: of kind,
// by client, with value, ok. It is set in place, field by field: a
// literal passed in was built, then copied twice (144 bytes), on every
// request.
func (r *Resource) feed(kind judge.Kind, client string, value int64, ok bool) {
	e := &r.ev
	*e = judge.Event{}
	e.Kind, e.Client, e.Value, e.OK = kind, client, value, ok
	r.hasEv = true
}

// Event hands over the judge's event of the request just served, once:
// the world feeds it to the judge. The pointer is valid until the next
// request.
func (r *Resource) Event() (*judge.Event, bool) {
	ok := r.hasEv
	r.hasEv = false
	return &r.ev, ok
}

// Write is one write request as the resource saw it.
type Write struct {
	At       int64 // true time in ns
	Client   string
	Token    int64
	Value    int64
	Accepted bool
}

// New is a resource with an empty counter, in the world around it (h) of
// kernel k.
func New(h Host, k *sim.Kernel, cfg Config) *Resource { return &Resource{h: h, k: k, cfg: cfg} }

// Accepted is the number of writes the resource applied.
func (r *Resource) Accepted() int64 { return r.accepted }

// Rejected is the number of requests refused for a stale fencing token.
func (r *Resource) Rejected() int64 { return r.rejected }

func (r *Resource) fenced(q *Request) bool { return r.cfg.Fencing == "token" && q.Fence > 0 }

// cas reports whether the resource checks stamps (fencing: cas).
func (r *Resource) cas() bool { return r.cfg.Fencing == "cas" }

// admit applies the token fencing rule to request q.
func (r *Resource) admit(q *Request) bool {
	if !r.fenced(q) {
		return true
	}
	if q.Fence < r.MaxToken {
		return false
	}
	if q.Fence == r.MaxToken && r.maxOwner != "" && r.maxOwner != q.Client {
		r.h.Tell(Name, "same-token", "same-token", sim.S("client", q.Client), sim.I("fence", q.Fence), sim.S("other", r.maxOwner))
	}
	r.MaxToken, r.maxOwner = q.Fence, q.Client
	return true
}

// stampOK is the cas rule for a write: the stamp is still the writer's.
func (r *Resource) stampOK(q *Request) bool { return !r.cas() || r.Stamp == q.Token }

// Read serves a read that has arrived: the counter's value, or false when
// the request is refused.
func (r *Resource) Read(req Request) (int64, bool) {
	q := &req
	if r.checksReads() && !r.admit(q) {
		r.rejected++
		r.feed(judge.ResourceRead, q.Client, 0, false)
		r.h.Tell(Name, "rejected", "read-rejected", sim.S("client", q.Client), sim.I("fence", q.Fence), sim.I("max", r.MaxToken))
		return 0, false
	}
	if r.h.Tapped() { // an admitted read changes nothing the judge counts
		r.feed(judge.ResourceRead, q.Client, 0, true)
	}
	if r.cas() {
		r.Stamp = q.Token
		r.h.Tell(Name, "read", "read-stamped", sim.S("client", q.Client), sim.I("value", r.Value), sim.S("token", q.Token))
		return r.Value, true
	}
	v := r.valueOf(q)
	if r.k.Unread(Name, "read") {
		return v, true
	}
	b := append(r.h.Line(), q.Client...)
	b = strconv.AppendInt(append(append(append(b, " read "...), r.counterOf(q)...), " = "...), v, 10)
	args := append(r.args[:0], sim.S("client", q.Client), sim.S("counter", r.counterOf(q)), sim.I("value", v))
	id := "read"
	if q.Fence > 0 {
		id, args = "read-token", append(args, sim.I("fence", q.Fence))
	}
	r.args = args
	r.h.SayLine(Name, "read", id, appendTokenNote(b, q), args...)
	return v, true
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

// Write serves a write of v that has arrived: applied, or refused by a
// protection.
func (r *Resource) Write(req Request, v int64) {
	q := &req
	wr := Write{At: int64(r.k.Now()), Client: q.Client, Token: q.Fence, Value: v}
	switch {
	case !r.stampOK(q):
		r.refuse(wr, q, "write-refused-stamp", sim.S("stamp", r.Stamp))
		return
	case !r.admit(q):
		r.refuse(wr, q, "write-refused-token", sim.I("max", r.MaxToken))
		return
	case r.duplicate(q, v):
		r.record(wr)
		return
	}
	wr.Accepted = true
	r.record(wr)
	old := r.setValue(q, v)
	r.accepted++
	r.feed(judge.ResourceWrite, q.Client, v, true)
	if r.k.Unread(Name, "write") {
		return
	}
	r.h.SayLine(Name, "write", "write", r.appliedLine(q, v, old), r.appliedArgs(q, v, old)...)
}

// appliedLine is the text of an applied write of v over old, built in the
// trace's reused buffer: exactly the catalogue's "write-applied" rendered
// from appliedArgs (TestEveryTraceEventRendersFromItsID), without a
// template walk on the hottest line.
func (r *Resource) appliedLine(q *Request, v, old int64) []byte {
	b := append(r.h.Line(), q.Client...)
	b = strconv.AppendInt(append(append(append(b, " wrote "...), r.counterOf(q)...), " = "...), v, 10)
	b = appendTokenNote(b, q)
	if r.idempotent() {
		b = strconv.AppendInt(append(b, " for job-"...), int64(q.Hold), 10)
	}
	if v <= old {
		b = strconv.AppendInt(append(b, " (it was "...), old, 10)
		b = append(b, ": an update is lost)"...)
	}
	return b
}

// appliedArgs are an applied write's message arguments (in the reused
// r.args): the trace reader's client, token, fence, value and accepted,
// and what the text says beside them, its optional notes as the ids of
// their pieces ("" when absent).
func (r *Resource) appliedArgs(q *Request, v, old int64) []sim.Arg {
	tokenNote, jobNote, lostNote := "", "", ""
	if q.Fence > 0 {
		tokenNote = "write-token-note"
	}
	if r.idempotent() {
		jobNote = "write-job-note"
	}
	if v <= old {
		lostNote = "write-lost-note"
	}
	r.args = append(r.args[:0], sim.S("client", q.Client), sim.S("token", q.Token), sim.I("fence", q.Fence),
		sim.I("value", v), sim.I("accepted", 1), sim.S("outcome", "write-applied"), sim.S("counter", r.counterOf(q)),
		sim.S("token_note", tokenNote), sim.I("hold", int64(q.Hold)), sim.S("job_note", jobNote),
		sim.I("old", old), sim.S("lost_note", lostNote))
	return r.args
}

// refuse is a write refused by the fencing rules: counted, recorded, told
// as the catalogue's piece outcome, which needs one more argument (the
// stamp, or the highest token seen).
func (r *Resource) refuse(wr Write, q *Request, outcome string, more sim.Arg) {
	r.rejected++
	r.record(wr)
	r.feed(judge.ResourceWrite, wr.Client, wr.Value, false)
	r.h.Tell(Name, "rejected", "write", append(WriteArgs(q.Client, q.Token, q.Fence, wr.Value, 0),
		sim.S("outcome", outcome), more)...)
}

// WriteArgs are the arguments of a write's "write" message id that a trace
// reader uses (accepted: 1 applied, 0 refused).
func WriteArgs(client, token string, fence, value, accepted int64) []sim.Arg {
	return []sim.Arg{sim.S("client", client), sim.S("token", token), sim.I("fence", fence), sim.I("value", value), sim.I("accepted", accepted)}
}

func appendTokenNote(b []byte, q *Request) []byte {
	if q.Fence > 0 {
		b = strconv.AppendInt(append(b, " [token "...), q.Fence, 10)
		b = append(b, ']')
	}
	return b
}
