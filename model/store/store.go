package store

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"github.com/lockstep-sim/lockstep/model/store/fastpath"
	"github.com/lockstep-sim/lockstep/sim"
)

// Store is a node's data: one in-process miniredis (no listener), the
// absolute expiry of its keys by the node's own clock, and the fast path
// that answers the lock commands without miniredis's dispatcher. It runs
// one command at a time and says what the command did as effects (each
// changed key's state after it, typed set/changed/deleted/expired), which
// the node logs and replicates. It knows nothing of roles, replication,
// crashes or persistence beyond refusing writes when told it is read-only.
type Store struct {
	clock     *sim.Clock // the node's clock (shared, not owned)
	monotonic bool       // keys expire by the monotonic reading, not the wall
	readOnly  bool       // a replica: writes answer READONLY (preHook)
	// noReplicas: a master short of good replicas (min-replicas-to-write):
	// writes answer NOREPLICAS, also from inside a script, like READONLY.
	noReplicas bool

	m     *miniredis.Miniredis
	db0   *miniredis.RedisDB // m's DB 0 (see db)
	srv   *server.Server
	conns map[string]*nodeConn
	// byID is the connections that a caller also knows by number
	// (ExecAs), by that number: the world numbers its clients, and
	// looking a client's name up on every command cost ~50 instructions.
	byID []*nodeConn

	// lastE is the expiry-clock reading (wall, or mono with monotonic) at
	// the last advance; miniredis TTLs are relative to it, so a key's
	// absolute expiry is lastE + TTL.
	lastE time.Duration
	// lastWall is the wall reading at the last advance, which miniredis
	// has been told (SetTime) unless timeOwed: miniredis reads its time
	// only to stamp a key's LRU clock (and in command handlers), and a
	// lock's release by its owner, a DEL, stamps only the key it removes.
	// So Advance leaves SetTime (and the time.Time it builds) to the
	// first call into miniredis after it (tellTime), which the owner's
	// release (nearly half of a contended lock's commands) never makes but
	// for its DEL (delKeys).
	lastWall time.Duration
	timeOwed bool
	// edge holds keys that sit exactly at their expiry instant. Redis keeps a
	// key while now <= expiry but miniredis deletes it at TTL <= 0, so such a
	// key is stored with 1ns of TTL and its true TTL is 0 (see trueTTL).
	edge map[string]bool
	// lag is expiry-clock time that has passed but that miniredis's TTLs
	// (durations that only FastForward shortens) do not reflect yet: a
	// key's true TTL is its miniredis TTL minus lag. While no key can
	// expire (see minExpire) advancing only adds to lag, which spares a
	// FastForward (a sort of all keys) on every advance; syncTTLs applies
	// it before anything reads or writes miniredis's TTLs other than
	// trueTTL and the fast path's SetTTL (fastHost.SetTTL), which stores
	// a TTL with the lag added instead. Zero whenever fieldTTLs is set.
	lag time.Duration
	// fieldTTLs: a command that may give a hash field its own TTL has run
	// since boot. Those expire by FastForward too, unseen by minExpire, so
	// the Store then tells miniredis of every advance at once.
	fieldTTLs bool
	// minExpire is a lower bound on every key's absolute expiry (by the
	// expiry clock) while the bound is valid: advance skips the scan of all
	// keys when the clock stays below it. It is lowered by every write whose
	// keys are known and reset to minExpireUnknown by the rest.
	minExpire time.Duration

	// seeded: miniredis's RNG has been seeded. SPOP, SRANDMEMBER and the
	// other random commands must not use the global RNG, but seeding it
	// costs a quarter of a node's boot and a lock scenario never sends
	// one, so preHook seeds it before the first command miniredis runs.
	seeded   bool
	fast     *fastpath.Path // the fast path (off with --lua=interpreted) and the Store's own connection
	fastDone bool           // the fast path answered the command exec is running

	out []Effect // effects of the last call, until the node takes them (effects)
	cmd running  // the command exec is running

	// dirty: miniredis ran a command that may leave state FLUSHALL does not
	// clear, so Release does not reuse it (pool.go).
	dirty bool
	wipe  *server.Peer // for Release's SCRIPT FLUSH
}

// running is the command exec is running: the keys it may write, whether
// their states before it are in pre yet (capturePre), and the ground truth
// about the key it tracks for the checker.
type running struct {
	touched []string
	pre     []Effect // scratch: touched keys' states before the write
	preRead bool
	// one: the command touches one key, which the fast path was about to
	// create or delete when its state before was due (capturePreKnowing),
	// so that state was not read and pre is empty: only whether the key
	// existed (oneExisted) tells a change, since the key's state after such
	// a write is either gone or one a missing key never has.
	one, oneExisted bool
	preKey          string // the tracked key when it is not in touched
	// keyBefore is whether preKey existed.
	keyBefore bool
	// The tracked key's state right after the last command, when exec read
	// it (the command wrote it; nil otherwise): the checker's grant needs
	// its value and TTL, and asking miniredis again would read the same.
	// It points at known (the usual case: no copy of a ~120-byte Effect
	// per write) or at keyAfterBuf; both stay as they are until the next
	// command's begin.
	keyAfter    *Effect
	keyAfterBuf Effect
	// known is a touched key's state right after the command's last write
	// to it, when that write was one whose outcome the fast path knows
	// (known.go); diff then does not read it back.
	known   Effect
	knownOK bool
	read    Effect // postState's storage for a state it reads
}

// nodeConn is one client connection: miniredis keeps MULTI and SELECT state
// in the peer, so every connection name gets its own.
type nodeConn struct {
	peer   *server.Peer
	buf    bytes.Buffer
	rd     *bufio.Reader
	multi  bool     // inside MULTI: writes are queued until EXEC
	queued []string // keys the queued writes will touch
	// tainted: the connection ran a command that changes connection state
	// the Lua fast path cannot see (SELECT, pub/sub, AUTH, HELLO, RESET);
	// its scripts then always run in Lua.
	tainted bool
	raw     []byte // the last reply as sent, until the next command (tests compare it)
	// fast is the fast path's last reply when it answered the last
	// command (fastOK): Exec returns its value without writing it as
	// RESP and parsing that back, and LastReply encodes it on demand
	// (into scratch).
	fast    fastpath.Reply
	fastOK  bool
	scratch []byte
}

// peerBufSize is the size of a connection's reply writer. Replies go to a
// bytes.Buffer, so buffering gains nothing; bufio's default of 4 KiB per
// connection was most of a small world's memory (an explore run builds a
// world, its nodes and their connections, many times a second).
const peerBufSize = 64

// New starts an empty store at true time now, on clock: on a miniredis
// that a finished store gave back (Release), emptied, or a fresh one.
func New(clock *sim.Clock, monotonic, fast bool, now time.Duration) *Store {
	return newOn(takeInstance(), clock, monotonic, fast, now)
}

// newOn is New on an empty miniredis instance.
func newOn(in *instance, clock *sim.Clock, monotonic, fast bool, now time.Duration) *Store {
	m := in.m
	s := &Store{clock: clock, monotonic: monotonic, m: m, db0: m.DB(0), srv: in.srv, wipe: in.wipe,
		conns: in.conns, byID: in.byID, minExpire: noExpiry}
	if s.conns == nil {
		s.conns = map[string]*nodeConn{}
	}
	s.lastE = s.ExpiryClock(now)
	s.lastWall = clock.Wall(now)
	m.SetTime(Epoch.Add(s.lastWall))
	if s.fast = in.fast; s.fast != nil {
		s.fast.Attach((*fastHost)(s), fast)
	} else {
		s.fast = fastpath.New((*fastHost)(s), s.srv, fast)
	}
	// One hook does both jobs (miniredis has one slot): READONLY on a
	// replica, the Lua fast path on a master.
	s.srv.SetPreHook(s.preHook)
	return s
}

// Close stops miniredis: the data is gone.
func (s *Store) Close() {
	s.m.Close()
	s.m, s.srv, s.conns, s.byID, s.edge = nil, nil, nil, nil, nil
}

// conn is the connection called name, made on first use.
func (s *Store) conn(name string) *nodeConn {
	c := s.conns[name]
	if c == nil {
		c = &nodeConn{}
		c.peer = server.NewPeer(bufio.NewWriterSize(&c.buf, peerBufSize))
		c.rd = bufio.NewReaderSize(&c.buf, 64)
		s.conns[name] = c
	}
	return c
}

// maxConnIDs bounds the numbers ExecAs keeps connections by (byID); a
// connection numbered past it is looked up by its name.
const maxConnIDs = 1 << 12

// connAs is the connection called name that the caller numbers id (-1:
// none): found by its number but the first time on this store, when it is
// looked up by name (the same connection as conn's) and kept under id.
func (s *Store) connAs(id int, name string) *nodeConn {
	if uint(id) < uint(len(s.byID)) {
		if c := s.byID[id]; c != nil {
			return c
		}
	}
	return s.numberConn(id, name)
}

// numberConn is connAs's first look at connection id.
func (s *Store) numberConn(id int, name string) *nodeConn {
	c := s.conn(name)
	if id >= 0 && id < maxConnIDs {
		if id >= len(s.byID) {
			s.byID = append(s.byID, make([]*nodeConn, id+1-len(s.byID))...)
		}
		s.byID[id] = c
	}
	return c
}

// record notes that key state e was written at true time now, typed kind.
// By pointer, filled in where it is kept: an Effect is ~120 bytes.
func (s *Store) record(now time.Duration, kind EffectKind, e *Effect) {
	// Grown first, then copied once: append(s.out, *e) copied e to the
	// stack on its way.
	if n := len(s.out); n < cap(s.out) {
		s.out = s.out[:n+1]
	} else {
		s.out = append(s.out, Effect{})
	}
	out := &s.out[len(s.out)-1]
	*out = *e
	out.At, out.Kind = now, kind
	out.TTL = s.pttl(out)
}

// Effects are the effects recorded since the last takeEffects, in order.
func (s *Store) Effects() []Effect { return s.out }

// TakeEffects forgets the recorded effects; the storage is reused.
func (s *Store) TakeEffects() {
	clear(s.out) // drop references to values
	s.out = s.out[:0]
}

// HandEffects is Effects then TakeEffects without copying them: the
// caller takes the recorded effects' storage, and the store records the
// next ones in spare's (emptied), which the caller must no longer use.
func (s *Store) HandEffects(spare []Effect) []Effect {
	out := s.out
	s.out = spare[:0]
	return out
}

// Presence is whether a key existed before and after a command.
type Presence struct{ Before, After bool }

// Unchanged is the Presence of key when a command changed nothing.
func (s *Store) Unchanged(key string) Presence {
	if key == "" {
		return Presence{}
	}
	x := s.db().Exists(key)
	return Presence{x, x}
}

// Exec runs one command (already advanced to now) on connection conn and
// reports whether key (unless "") existed just before and right after it:
// the checker's ground truth about the lock key, read from the key states
// exec reads anyway for a write that touches it. The changed keys' states
// after it are in effects.
func (s *Store) Exec(now time.Duration, conn, key string, args []string) (any, Presence, error) {
	return s.ExecAs(now, -1, conn, key, args)
}

// ExecAs is Exec on connection conn that the caller also numbers id (>= 0;
// -1: none), which then finds it without looking its name up. A number
// must name the same connection for the store's life (the world numbers
// its clients by their place); a connection numbered or not is the same
// one by its name.
func (s *Store) ExecAs(now time.Duration, id int, conn, key string, args []string) (any, Presence, error) {
	if len(args) == 0 {
		return nil, s.Unchanged(key), RedisError("ERR empty command")
	}
	c := s.connAs(id, conn)
	// classify, with its switch inlined here (it also names the command
	// for the fast path), the rest by name in upper case (classifyOn).
	cmd := args[0]
	code, spec, isWrite, hot := hotClass(cmd)
	if !hot {
		cmd, code, spec, isWrite = classifyOn(c, args)
	}
	if isWrite && (s.readOnly || s.noReplicas) && spec != keysScript {
		// Scripts may run on a replica and only fail if they call a write
		// command (preHook); plain writes are refused up front.
		return nil, s.Unchanged(key), s.refusal()
	}
	queued := c.multi && cmd != "EXEC" && cmd != "DISCARD" && cmd != "MULTI" && cmd != "WATCH"
	// The keys the command may write now; a queued write happens at EXEC.
	var touched []string
	switch {
	case queued:
		if isWrite {
			c.queued = append(c.queued, s.touchedKeys(spec, args)...)
		}
	case cmd == "EXEC":
		touched, c.queued, c.multi = c.queued, nil, false
	case cmd == "DISCARD":
		c.queued, c.multi = nil, false
	// Inline, touchedKeys's answers for SET's key and a one-key script's:
	case isWrite && spec == keysFirst && len(args) > 1:
		touched = args[1:2]
	case isWrite && spec == keysScript && len(args) > 3 && args[2] == "1":
		touched = args[3:4]
	case isWrite:
		touched = s.touchedKeys(spec, args)
	}
	tracked := s.begin(dedupe(touched), key)
	// The fast path's reply is the one miniredis would send, kept on c:
	// never an error, never MULTI or EVAL's failure.
	s.fastDone, c.fastOK, c.raw = false, false, nil
	if s.fastMay(c) {
		if c.fast, s.fastDone = s.fast.Answer(code, args[1:]); s.fastDone {
			c.fastOK = true
			if r := &s.cmd; r.preRead && r.one && tracked == 0 {
				return c.fast.Value(), s.diffOne(now), nil // the usual fast write, without diff's call
			}
			return c.fast.Value(), s.diff(now, key, tracked), nil
		}
	}
	s.dispatch(c, cmd, spec, isWrite, args)
	p := s.diff(now, key, tracked)
	if !c.multi && !expiryKnown(cmd, isWrite) {
		s.minExpire = minExpireUnknown
	}
	reply, err := s.finish(c, cmd, queued, args)
	return reply, p, err
}

// begin starts the command's bookkeeping and returns key's index in
// touched (-1: not there). The touched keys' states before the command are
// read just before its first change (capturePre, also called by the fast
// path): a fast answer that only reads (SET NX on a held lock, a release
// by a non-owner: most of a contended lock's commands) needs none of them.
func (s *Store) begin(touched []string, key string) int {
	r := &s.cmd
	r.touched, r.pre, r.preRead, r.one = touched, r.pre[:0], false, false
	r.keyAfter = nil
	s.forgetPost()
	tracked := slices.Index(touched, key) // touched has no repeats
	r.preKey = ""
	if tracked < 0 {
		r.preKey = key
	}
	return tracked
}

// fastMay reports whether ExecAs may ask the fast path to answer on c:
// on a master (a replica's or a refusing master's writes fail, also in
// scripts), on a connection not in MULTI (the command must be queued)
// and not tainted (it has state the fast path cannot see). ExecAs asks
// Path.Answer itself: a call of its own around it cost ~30 instructions
// a command.
func (s *Store) fastMay(c *nodeConn) bool {
	return !s.readOnly && !s.noReplicas && !c.multi && !c.tainted
}

// dispatch has miniredis's dispatcher answer the command, when the fast
// path did not.
func (s *Store) dispatch(c *nodeConn, cmd string, spec keySpec, isWrite bool, args []string) {
	c.buf.Reset()
	s.capturePre()
	switch cmd {
	case "EVAL", "EVALSHA", "SCRIPT", "EXEC":
		s.fast.LoadCached()
	}
	s.syncTTLs()
	if !noFieldTTLs(cmd, isWrite, spec) {
		s.fieldTTLs = true
	}
	s.tellTime()
	s.srv.Dispatch(c.peer, args)
	s.refreshDB(cmd)
	c.peer.Flush()
}

// diff records the effect of every touched key whose state changed and
// returns key's Presence before and after the command.
func (s *Store) diff(now time.Duration, key string, tracked int) Presence {
	r := &s.cmd
	if !r.preRead {
		// The command only read: the touched keys are as they were.
		r.touched = nil
		var x bool
		if key != "" {
			// Only the fast path's own answer says what it saw (a
			// connection in MULTI never asked it).
			if seen, exists := s.fast.Seen(); s.fastDone && seen == key {
				x = exists
			} else {
				x = s.db().Exists(key)
			}
		}
		return Presence{x, x}
	}
	if r.one && tracked == 0 {
		return s.diffOne(now)
	}
	var p Presence
	switch {
	case tracked >= 0:
		p.Before = !r.pre[tracked].Deleted
	case key != "":
		p.Before = r.keyBefore
	}
	p.After = p.Before
	if key != "" && tracked < 0 {
		p.After = s.db().Exists(key)
	}
	for i, k := range r.touched {
		post := s.postState(k)
		if i == tracked {
			p.After = !post.Deleted
			if post == &r.read {
				// The next touched key's read would overwrite it.
				r.keyAfterBuf = *post
				post = &r.keyAfterBuf
			}
			r.keyAfter = post
		}
		if kind := r.change(i, post); kind != KeyRead {
			s.record(now, kind, post)
		}
		if post.Expires && post.ExpireAt < s.minExpire {
			s.minExpire = post.ExpireAt
		}
	}
	// r.pre keeps its last states' references until the next command
	// overwrites them: clearing them cost a memclr per write.
	r.touched = nil
	return p
}

// diffOne is diff for the usual fast write (running.one), of the tracked
// key alone: no loop, and the key's state after it is kept where it was
// read, since no other key's read follows. A known state is that key's
// without comparing names: it is only ever known of a key the command
// wrote, and the command may write no key but its one touched key (a
// write outside the touched keys would escape every diff; the store's
// tests check both in verifyKnownPost).
func (s *Store) diffOne(now time.Duration) Presence {
	r := &s.cmd
	post := &r.known // postState's usual answer, without the call
	if !r.knownOK || verifyKnownPost {
		post = s.postState(r.touched[0])
	}
	r.touched, r.keyAfter = nil, post
	if kind := oneChange(r.oneExisted, post.Deleted); kind != KeyRead {
		s.record(now, kind, post)
	}
	if post.Expires && post.ExpireAt < s.minExpire {
		s.minExpire = post.ExpireAt
	}
	return Presence{r.oneExisted, !post.Deleted}
}

// change types how touched key i went from its state before the command
// to post: KeyRead when it did not change.
func (r *running) change(i int, post *Effect) EffectKind {
	if r.one {
		return oneChange(r.oneExisted, post.Deleted)
	}
	pre := &r.pre[i]
	if post.SameState(pre) {
		return KeyRead
	}
	return changeKind(pre, post)
}

// oneChange is change for the key of running.one, whose state before is
// only known as missing or present (existed), which is enough: a present
// key's state is never a missing one's.
func oneChange(existed, deleted bool) EffectKind {
	switch {
	case deleted && existed:
		return KeyDeleted
	case deleted:
		return KeyRead
	case existed:
		return KeyChanged
	}
	return KeySet
}

// changeKind types the change of a key from pre to post.
func changeKind(pre, post *Effect) EffectKind {
	switch {
	case post.Deleted:
		return KeyDeleted
	case pre.Deleted:
		return KeySet
	}
	return KeyChanged
}

// finish reads a dispatched command's reply and keeps the connection's
// transaction state.
func (s *Store) finish(c *nodeConn, cmd string, queued bool, args []string) (any, error) {
	reply, err := c.parse()
	if err == nil && cmd == "MULTI" {
		c.multi = true
	}
	if err != nil && cmd == "EVAL" && !queued && evalNumkeysValid(args) {
		// Redis caches a script as soon as it compiles, even if running it
		// then fails; miniredis only after a successful run. Load it, so a
		// later EVALSHA finds it as on Redis (a script that does not
		// compile fails to load, as on Redis).
		s.fast.LoadScript(args[1])
	}
	return reply, err
}

// evalNumkeysValid reports whether EVAL's numkeys is one Redis accepts,
// which it checks before compiling the script.
func evalNumkeysValid(args []string) bool {
	if len(args) < 3 {
		return false
	}
	nk, err := strconv.Atoi(args[2])
	return err == nil && nk >= 0 && nk <= len(args)-3
}

// parse reads the one reply in c.buf.
func (c *nodeConn) parse() (any, error) {
	b := c.buf.Bytes()
	c.raw = b
	if len(b) == 0 {
		return nil, nil
	}
	if b[0] == '-' {
		line := b[1:]
		if i := bytes.IndexByte(line, '\r'); i >= 0 {
			line = line[:i]
		}
		return nil, RedisError(line)
	}
	r, err := fastpath.ParseReply(b, c.rd, &c.buf)
	if err != nil {
		return nil, fmt.Errorf("model: bad reply %q: %w", b, err)
	}
	return r, nil
}

// preHook runs before every command miniredis dispatches, including the
// commands a Lua script calls. On a replica, a write fails the way it does on
// a real read-only replica, also from inside a script (so scripts on a
// replica always run in Lua). The fast path watches for SCRIPT FLUSH.
func (s *Store) preHook(c *server.Peer, cmd string, args ...string) bool {
	if !s.seeded {
		// The first command dispatched is never one a script or EXEC
		// dispatches from inside (that comes after its own), so
		// miniredis's lock, which Seed takes, is free here.
		s.seeded = true
		s.m.Seed(1)
	}
	s.forgetPost() // whatever it is, it may write
	s.fast.ForgetString()
	if !s.dirty && !recyclable(cmd) {
		s.dirty = true
	}
	if s.readOnly || s.noReplicas {
		if spec, ok := writeCommands()[cmd]; ok && spec != keysScript {
			c.WriteError(string(s.refusal()))
			return true
		}
	}
	s.fast.Hook(c, cmd)
	return false
}

// Exists reports whether key is there now (the store must have been
// advanced to now).
func (s *Store) Exists(key string) bool { return s.db().Exists(key) }

// SetReadOnly makes the store refuse writes as a replica does (READONLY),
// also from inside a script; false: writable again (a promotion).
func (s *Store) SetReadOnly(on bool) { s.readOnly = on }

// SetNoReplicas makes the store refuse writes with NOREPLICAS, as a master
// short of good replicas under min-replicas-to-write does (Redis 7 checks a
// plain write up front and a script's write when the script makes it:
// processCommand and scriptVerifyWriteCommandAllow); false lifts it.
func (s *Store) SetNoReplicas(on bool) { s.noReplicas = on }

// NoReplicas reports whether SetNoReplicas is on.
func (s *Store) NoReplicas() bool { return s.noReplicas }

// refusal is the error a refused write gets: READONLY on a replica first.
func (s *Store) refusal() RedisError {
	if s.readOnly {
		return errReadOnly
	}
	return errNoReplicas
}

// LastKeyState is the state of the key Exec tracked right after the last
// command, if it read it (the command wrote it): what KeyState would read
// now, at the same instant.
func (s *Store) LastKeyState() (Effect, bool) {
	if s.cmd.keyAfter == nil {
		return Effect{}, false
	}
	return *s.cmd.keyAfter, true
}

// LastKeyStateRef is LastKeyState without copying the Effect: nil when Exec
// did not read it; valid until the next command.
func (s *Store) LastKeyStateRef() *Effect { return s.cmd.keyAfter }
