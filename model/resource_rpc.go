package model

import (
	"strconv"

	"github.com/lockstep-sim/lockstep/model/resource"
	"github.com/lockstep-sim/lockstep/sim"
)

// The protected resource (model/resource) as a process on the network:
// a client's read and write are RPCs to it, which partitions, isolation and
// slow links reach like any other message.

// Resource is the protected counter (model/resource).
type Resource = resource.Resource

// Write is one write request as the resource saw it.
type Write = resource.Write

// KeptWrites is how many recent write requests the resource remembers.
const KeptWrites = resource.KeptWrites

// ResourceName is the process name of the protected resource on the network.
const ResourceName = resource.Name

// IdempotencyJob is resource.idempotency's job mode (resource.IdempotencyJob).
const IdempotencyJob = resource.IdempotencyJob

// resHost is the world as the resource sees it.
type resHost struct{ w *World }

func (h resHost) Tapped() bool                                { return h.w.tap != nil }
func (h resHost) Emit(proc, kind, format string, args ...any) { h.w.Emit(proc, kind, format, args...) }
func (h resHost) Tell(proc, kind, id string, args ...sim.Arg) { h.w.Tell(proc, kind, id, args...) }
func (h resHost) Line() []byte                                { return h.w.line() }
func (h resHost) EmitLine(proc, kind string, b []byte)        { h.w.emitLine(proc, kind, b) }
func (h resHost) Say(proc, kind, id string, args []sim.Arg, format string, a ...any) {
	h.w.Say(proc, kind, id, args, format, a...)
}
func (h resHost) SayLine(proc, kind, id string, b []byte, args ...sim.Arg) {
	h.w.sayLine(proc, kind, id, b, args...)
}

func newResource(w *World) *Resource {
	rc := w.Cfg.Resource
	return resource.New(resHost{w}, w.K, resource.Config{Fencing: w.Cfg.Lock.Fencing, WritesOnly: rc.WritesOnly,
		Idempotency: rc.Idempotency})
}

// feedResource gives the judge the event of the request the resource just
// served, if it has one.
func (w *World) feedResource() {
	if e, ok := w.Res.Event(); ok {
		w.feed(e)
	}
}

// request is what client c's read or write under lease l carries.
func request(c *Client, l *Lease) resource.Request {
	return resource.Request{Client: c.Name, Hold: c.hold, Resource: c.Cfg.Resource, Fence: l.Fence, Token: l.Token}
}

// readResource fetches the counter; false when refused or unreachable.
func (w *World) readResource(t *Thread, l *Lease) (int64, bool) {
	c := t.c
	reply, err := t.rpc(ResourceName, w.Cfg.Lock.Timeout, w.newResourceCall(c, l, 0).read)
	if err != nil {
		c.lent = true // the request may still arrive and read l
		w.Tell(c.Name, "abort", "read-failed", sim.S("error", err.Error()))
		return 0, false
	}
	rc := reply.(*resourceCall)
	value, ok := rc.value, rc.ok
	w.resCalls.Put(rc)
	if !ok {
		w.Tell(c.Name, "abort", "read-refused", sim.I("fence", l.Fence))
	}
	return value, ok
}

// writeResource stores v as the new counter value.
func (w *World) writeResource(t *Thread, l *Lease, v int64) {
	c := t.c
	rc := w.newResourceCall(c, l, v)
	if _, err := t.rpc(ResourceName, w.Cfg.Lock.Timeout, rc.write); err != nil {
		c.lent = true // the request may still arrive and read l
		w.Tell(c.Name, "abort", "write-failed", sim.S("error", err.Error()))
		return
	}
	w.resCalls.Put(rc)
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
		w.Tell("net", "setup", "fence-start", sim.S("key", key), sim.I("counter", int64(start-1)), sim.I("first", int64(start)))
	})
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
