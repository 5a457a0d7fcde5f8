package model

import (
	"strconv"

	"github.com/lockstep-sim/lockstep/model/judge"
)

// The resource's protections beyond the fencing rule itself (resource.go):
// where the token is checked (Config.Resource.WritesOnly), where the
// fencing counter starts (StartToken) and the idempotency key that makes a
// job's write count once (Idempotency). The zero ResourceConfig is the
// resource of old, so every existing trace is unchanged.

// IdempotencyJob keys each write by the job its hold runs: hold h of any
// client is job h (a scheduler's tick that every instance tries to run),
// and the resource applies the first write of a job and refuses the rest,
// as a unique constraint on a job-id column does.
const IdempotencyJob = "job"

// checksReads reports whether a read's fencing token is checked (and
// raises the highest token seen): every mode but writes-only.
func (r *Resource) checksReads() bool { return !r.w.Cfg.Resource.WritesOnly }

// idempotent reports whether writes carry a job key.
func (r *Resource) idempotent() bool { return r.w.Cfg.Resource.Idempotency == IdempotencyJob }

// jobKey is the idempotency key of client c's current hold.
func jobKey(c *Client) string { return "job-" + strconv.Itoa(c.hold) }

// Duplicates is the number of writes refused because their job had been
// written already.
func (r *Resource) Duplicates() int64 { return r.duplicates }

// duplicate applies the unique constraint to a write by c that passed the
// fencing checks: true (and the write is refused) when its job was written
// before. The first write of a job claims it.
func (r *Resource) duplicate(c *Client, v int64) bool {
	if !r.idempotent() {
		return false
	}
	if r.jobs == nil {
		r.jobs = map[int]string{} // at most MaxHolds entries: a job is a hold index
	}
	by, seen := r.jobs[c.hold]
	if !seen {
		r.jobs[c.hold] = c.Name
		return false
	}
	r.duplicates++
	r.w.feed(&judge.Event{Kind: judge.ResourceDuplicate, Client: c.Name, Value: v})
	r.w.Emit(ResourceName, "duplicate", "write %d by %s for %s refused: %s wrote %s already (the idempotency key is taken)",
		v, c.Name, jobKey(c), by, jobKey(c))
	return true
}

// startFencing sets every shard's fencing counter so that the first token
// handed out is Config.Resource.StartToken (Kleppmann's 33): the counter
// as a long-running system has left it. It is data on the nodes, written
// before the run as replication would have left it, so a restart without
// persistence forgets it like any other key.
func (w *World) startFencing() {
	start := w.Cfg.Resource.StartToken
	if start <= 1 || w.Cfg.Lock.Fencing != "token" {
		return
	}
	key := w.Cfg.Lock.Key + ":fence"
	for _, sh := range w.Shards {
		if _, err := sh.Master.Do(0, "setup", "SET", key, strconv.FormatInt(start-1, 10)); err != nil {
			continue // a node that cannot take it starts from 1, as it would in life
		}
		effs := sh.Master.TakeEffects()
		for _, rep := range sh.Replicas {
			rep.ApplyEffects(0, effs)
		}
	}
	// A line of the trace, so at time 0 once the run's trace is attached.
	w.K.At(0, func() {
		w.Emit("net", "setup", "the fencing counter %s stands at %d on every shard: the first token is %d", key, start-1, start)
	})
}

// counterOf is what the trace calls the counter c works on: "counter", or
// its resource's name (lock granularity: clients on different resources).
func (r *Resource) counterOf(c *Client) string {
	if c.Cfg.Resource == "" {
		return "counter"
	}
	return c.Cfg.Resource
}

// valueOf is the value of the counter c works on.
func (r *Resource) valueOf(c *Client) int64 {
	if c.Cfg.Resource == "" {
		return r.Value
	}
	return r.named[c.Cfg.Resource]
}

// setValue stores v in the counter c works on and returns the old value.
func (r *Resource) setValue(c *Client, v int64) (old int64) {
	if c.Cfg.Resource == "" {
		old, r.Value = r.Value, v
		return old
	}
	if r.named == nil {
		r.named = map[string]int64{} // at most one entry per client
	}
	old, r.named[c.Cfg.Resource] = r.named[c.Cfg.Resource], v
	return old
}

// resourcesOf is the judge's map of client to resource, nil when every
// client works on the one counter (the judge's books of old).
func resourcesOf(cs []ClientConfig) map[string]string {
	var m map[string]string
	for _, c := range cs {
		if c.Resource != "" {
			m = map[string]string{}
			break
		}
	}
	if m == nil {
		return nil
	}
	for _, c := range cs {
		m[c.Name] = c.Resource
	}
	return m
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
