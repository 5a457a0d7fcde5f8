package store

import (
	"bufio"
	"io"
	"sync"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"github.com/lockstep-sim/lockstep/model/store/fastpath"
)

// Booting a miniredis registers its ~250 commands in a fresh table and
// serves a throwaway pipe connection on a goroutine: half the allocated
// bytes of an explore run, whose world has five nodes and lives a
// millisecond. A finished world's stores are therefore emptied and kept
// (Release) for the next New, which then costs a FLUSHALL instead.
//
// A recycled instance must be indistinguishable from a fresh one, or the
// trace of a run would depend on the runs before it on that goroutine
// (TestRecycledStoreIsFresh, TestReleasedWorldsAreFresh). Everything a
// command can leave behind outside the keys, miniredis keeps in a few
// places: the script cache (flushed), the RNG (reseeded: seeded is false
// in a new Store), the connections' state (each Store makes its own
// peers), pub/sub subscribers, the password table, and the server's
// command and connection counters (INFO). A store that ran any command
// outside the known read and write commands, or one that changes
// connection state or reads the counters, is marked dirty and not reused.
var instances sync.Pool // of *instance

// instance is a booted miniredis, empty, waiting for its next Store.
type instance struct {
	m    *miniredis.Miniredis
	srv  *server.Server
	wipe *server.Peer // runs SCRIPT FLUSH on release; its replies are discarded
	// The last store's connections and fast path, emptied (reset): an
	// explore run's worlds open the same connections every time.
	conns map[string]*nodeConn
	fast  *fastpath.Path
	// byID's storage, emptied: the next world's numbers name other
	// connections (numberConn writes nil over what it grows back into).
	byID []*nodeConn
}

// takeInstance is an emptied instance from the pool, or a new one.
func takeInstance() *instance {
	if in, ok := instances.Get().(*instance); ok {
		return in
	}
	return bootInstance()
}

// bootInstance is a freshly booted miniredis.
//
// Dial is the one exported way (v2.40.0) to give a miniredis a server with
// its commands registered (startLocked) and no TCP listener; the Start
// family listens on TCP. The throwaway pipe connection it serves on two
// goroutines (ServeConn, servePeer: 8 KiB of buffers, a channel) costs a
// fresh process ~20 page faults, but there is nothing else to call.
func bootInstance() *instance {
	m := miniredis.NewMiniRedis()
	c, err := m.Dial() // creates the server without a TCP listener
	if err != nil {
		panic("model: miniredis: " + err.Error())
	}
	c.Close()
	return &instance{m: m, srv: m.Server(), wipe: server.NewPeer(bufio.NewWriterSize(io.Discard, peerBufSize))}
}

// Release hands the store's miniredis back for reuse by a later New and
// leaves the store unusable: its world is over (model.World.Close). A
// store that was closed (a crash) or is dirty (see instances) gives
// nothing back.
func (s *Store) Release() {
	if in := s.recycle(); in != nil {
		instances.Put(in)
	}
}

// recycle empties the store's miniredis and returns it (nil: not
// reusable, and closed), leaving the store unusable.
func (s *Store) recycle() *instance {
	if s.m == nil {
		return nil
	}
	if s.dirty {
		s.Close()
		*s = Store{}
		return nil
	}
	in := &instance{m: s.m, srv: s.srv, wipe: s.wipe, conns: s.conns, fast: s.fast, byID: s.byID[:0]}
	dispatched := s.seeded
	*s = Store{} // any later use fails loudly instead of touching the next world's data
	for _, c := range in.conns {
		c.reset()
	}
	in.fast.Reset()
	in.srv.SetPreHook(nil)
	if !dispatched {
		// miniredis dispatched nothing (preHook, which seeds, never ran):
		// only the fast path's direct calls wrote, to DB 0's keys, and no
		// script was loaded. Deleting those keys leaves what FLUSHALL and
		// SCRIPT FLUSH would, without FLUSHALL's eleven new maps per DB.
		db := in.m.DB(0)
		for _, k := range db.Keys() {
			db.Del(k)
		}
		return in
	}
	in.m.FlushAll()
	in.srv.Dispatch(in.wipe, []string{"SCRIPT", "FLUSH"})
	in.wipe.Flush()
	return in
}

// recyclable reports whether a command miniredis dispatched leaves nothing
// behind that FLUSHALL and SCRIPT FLUSH do not clear (see instances).
func recyclable(cmd string) bool {
	if connStateCommands()[cmd] || cmd == "INFO" {
		return false
	}
	_, write := writeCommands()[cmd]
	return write || readCommands()[cmd] || dataCommands()[cmd]
}

// dataCommands are the other commands known to change only keys (in any
// DB): FLUSHALL clears what they leave. Any command not known is assumed to
// leave state behind, which costs only the reuse. Built on first use (see
// writeCommands).
var dataCommands = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"EXEC": true, "SWAPDB": true, "MOVE": true, "HEXPIRE": true, "HPEXPIRE": true,
		"HEXPIREAT": true, "HPEXPIREAT": true, "HPERSIST": true, "HTTL": true, "HPTTL": true,
	}
})

// reset empties a connection as a new one is: no reply, no transaction,
// miniredis's state for it (MULTI, WATCH, RESP3) gone.
func (c *nodeConn) reset() {
	c.buf.Reset()
	c.rd.Reset(&c.buf)
	resetPeer(c.peer)
	c.multi, c.queued, c.tainted, c.raw, c.fastOK = false, nil, false, nil, false
}

// resetPeer forgets what miniredis keeps on a peer; a command that leaves
// anything else there (CLIENT SETNAME, blocking, pub/sub) made the store
// dirty.
func resetPeer(p *server.Peer) {
	p.Ctx, p.Resp3, p.SwitchResp3, p.ClientName = nil, false, nil, ""
}
