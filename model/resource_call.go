package model

// resourceCall is one read or write request to the resource: what runs when
// it arrives (its read or write handler, bound once per object so that
// passing one to Thread.rpc allocates nothing) and, for a read, the reply,
// which travels back as the *resourceCall itself (boxing a value reply
// would allocate).
//
// A call goes back to Resource.calls only once its caller has the reply:
// the handler has run (a request is delivered at most once) and nothing
// reads the call again. A request or reply that is dropped, or a caller
// that times out, leaves its call to the garbage collector, since a late
// delivery may still run it.
type resourceCall struct {
	r     *Resource
	c     *Client
	l     *Lease
	v     int64 // the value a write stores
	value int64 // a read's reply
	ok    bool  // a read was admitted

	read, write func() (any, error, bool)
}

// newCall is a call by c under l (writing v, for a write).
func (r *Resource) newCall(c *Client, l *Lease, v int64) *resourceCall {
	rc := r.calls.Get()
	if rc.read == nil {
		rc.read, rc.write = rc.serveRead, rc.serveWrite
	}
	rc.r, rc.c, rc.l, rc.v, rc.value, rc.ok = r, c, l, v, 0, false
	return rc
}

func (rc *resourceCall) serveRead() (any, error, bool) {
	rc.value, rc.ok = rc.r.serveRead(rc.c, rc.l)
	return rc, nil, true
}

func (rc *resourceCall) serveWrite() (any, error, bool) {
	rc.r.serveWrite(rc.c, rc.l, rc.v)
	return nil, nil, true
}
