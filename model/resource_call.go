package model

import "github.com/lockstep-sim/lockstep/sim"

// resourceCall is one read or write request to the resource: what runs when
// it arrives (its read or write handler, bound once per object so that
// passing one to Thread.rpc allocates nothing) and, for a read, the reply,
// which travels back as the *resourceCall itself (boxing a value reply
// would allocate).
//
// A call goes back to the world's free list only once its caller has the
// reply: the handler has run (a request is delivered at most once) and
// nothing reads the call again. A request or reply that is dropped, or a
// caller that times out, leaves its call to the garbage collector, since a
// late delivery may still run it.
type resourceCall struct {
	w     *World
	c     *Client
	l     *Lease
	v     int64 // the value a write stores
	value int64 // a read's reply
	ok    bool  // a read was admitted

	read, write func() (any, error, bool)
}

// resourceCalls are finished requests, for reuse.
type resourceCalls = sim.FreeList[resourceCall]

// newResourceCall is a call by c under l (writing v, for a write). The
// request the resource sees is built at arrival: the call holds only
// pointers.
func (w *World) newResourceCall(c *Client, l *Lease, v int64) *resourceCall {
	rc := w.resCalls.Get()
	if rc.read == nil {
		rc.read, rc.write = rc.serveRead, rc.serveWrite
	}
	rc.w, rc.c, rc.l, rc.v, rc.value, rc.ok = w, c, l, v, 0, false
	return rc
}

func (rc *resourceCall) serveRead() (any, error, bool) {
	rc.value, rc.ok = rc.w.Res.Read(request(rc.c, rc.l))
	rc.w.feedResource()
	return rc, nil, true
}

func (rc *resourceCall) serveWrite() (any, error, bool) {
	rc.w.Res.Write(request(rc.c, rc.l), rc.v)
	rc.w.feedResource()
	return nil, nil, true
}
