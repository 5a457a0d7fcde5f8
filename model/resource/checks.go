package resource

import (
	"strconv"

	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/sim"
)

// The protections beyond the fencing rule itself: where the token is
// checked (Config.WritesOnly), the idempotency key that makes a job's
// write count once (Config.Idempotency), and the counters of named
// resources (Request.Resource). The zero values are the resource of old.

// IdempotencyJob keys each write by the job its hold runs: hold h of any
// client is job h (a scheduler's tick that every instance tries to run),
// and the resource applies the first write of a job and refuses the rest,
// as a unique constraint on a job-id column does.
const IdempotencyJob = "job"

// checksReads reports whether a read's fencing token is checked (and
// raises the highest token seen): every mode but writes-only.
func (r *Resource) checksReads() bool { return !r.cfg.WritesOnly }

// idempotent reports whether writes carry a job key.
func (r *Resource) idempotent() bool { return r.cfg.Idempotency == IdempotencyJob }

// jobKey is the idempotency key of q's hold.
func jobKey(q *Request) string { return "job-" + strconv.Itoa(q.Hold) }

// Duplicates is the number of writes refused because their job had been
// written already.
func (r *Resource) Duplicates() int64 { return r.duplicates }

// duplicate applies the unique constraint to a write that passed the
// fencing checks: true (and the write is refused) when its job was written
// before. The first write of a job claims it.
func (r *Resource) duplicate(q *Request, v int64) bool {
	if !r.idempotent() {
		return false
	}
	if r.jobs == nil {
		r.jobs = map[int]string{} // at most MaxHolds entries: a job is a hold index
	}
	by, seen := r.jobs[q.Hold]
	if !seen {
		r.jobs[q.Hold] = q.Client
		return false
	}
	r.duplicates++
	r.feed(judge.ResourceDuplicate, q.Client, v, false)
	r.h.Tell(Name, "duplicate", "duplicate", sim.I("value", v), sim.S("client", q.Client), sim.S("job", jobKey(q)), sim.S("by", by))
	return true
}

// counterOf is what the trace calls the counter q works on: "counter", or
// its resource's name (lock granularity: clients on different resources).
func (r *Resource) counterOf(q *Request) string {
	if q.Resource == "" {
		return "counter"
	}
	return q.Resource
}

// valueOf is the value of the counter q works on.
func (r *Resource) valueOf(q *Request) int64 {
	if q.Resource == "" {
		return r.Value
	}
	return r.named[q.Resource]
}

// setValue stores v in the counter q works on and returns the old value.
func (r *Resource) setValue(q *Request, v int64) (old int64) {
	if q.Resource == "" {
		old, r.Value = r.Value, v
		return old
	}
	if r.named == nil {
		r.named = map[string]int64{} // at most one entry per client
	}
	old, r.named[q.Resource] = r.named[q.Resource], v
	return old
}

// Counter is the value of the named resource's counter ("": the unnamed
// one), for displays.
func (r *Resource) Counter(name string) int64 {
	if name == "" {
		return r.Value
	}
	return r.named[name]
}

// Total is the sum of every counter, the unnamed one and the named
// resources': what a display of "the counter" shows when clients work on
// several (it is Value when they do not).
func (r *Resource) Total() int64 {
	t := r.Value
	for _, v := range r.named { // a sum: the order does not matter
		t += v
	}
	return t
}
