package model

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"github.com/lockstep-sim/lockstep/sim"
)

// Epoch is the instant a node's wall reading 0 stands for: TIME, PXAT and
// EXAT see Epoch plus the node's wall reading, so they are deterministic.
var Epoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// Persistence modes of NodeConfig.Persistence (redis.persistence).
const (
	PersistNone     = "none"
	PersistEverysec = "everysec"
	PersistAlways   = "always"
)

// ErrDown is what Do returns when the node has crashed. The network layer
// turns it into silence: a client of a dead node sees a timeout, not an error.
var ErrDown = errors.New("node is down")

// RedisError is an error reply from Redis, holding its message exactly as
// Redis sends it ("NOSCRIPT ...", "LOADING ...", "READONLY ...").
type RedisError string

func (e RedisError) Error() string { return string(e) }

// The error replies the node itself produces (rather than miniredis).
const (
	errLoading  = RedisError("LOADING Redis is loading the dataset in memory")
	errReadOnly = RedisError("READONLY You can't write against a read only replica.")
)

// NodeConfig describes one Redis node.
type NodeConfig struct {
	Name         string        // "redis-1", "redis-1-r1"
	Monotonic    bool          // redis.clock: monotonic — key expiry ignores wall jumps (drift still applies)
	Persistence  string        // "none" (or "") | "everysec" | "always"
	RestartDelay time.Duration // after restart, answer every command with -LOADING for this long
	// LuaInterpreted turns the fast path off (--lua=interpreted): every
	// script then runs in miniredis's gopher-lua, 100x slower, and every
	// plain command goes through miniredis's dispatcher. The replies and
	// data are the same either way (see fastpath.go, fastpath_plain.go).
	LuaInterpreted bool
}

// Node is a simulated Redis server: one in-process miniredis (no listener)
// plus the node's own clock, its role, its append-only log and its
// up/down state. It is not safe for concurrent use; the simulator runs one
// process at a time, which is also what makes Lua scripts atomic.
type Node struct {
	cfg   NodeConfig
	clock sim.Clock

	m     *miniredis.Miniredis
	db0   *miniredis.RedisDB // m's DB 0 (see db)
	srv   *server.Server
	conns map[string]*nodeConn

	up           bool
	loadingUntil time.Duration // true time until which commands get -LOADING
	replica      bool

	// lastE is the expiry-clock reading (wall, or mono with Monotonic) at the
	// last advance; miniredis TTLs are relative to it, so a key's absolute
	// expiry is lastE + TTL.
	lastE time.Duration
	// lastWall is the wall reading miniredis was last told (SetTime).
	lastWall time.Duration
	// edge holds keys that sit exactly at their expiry instant. Redis keeps a
	// key while now <= expiry but miniredis deletes it at TTL <= 0, so such a
	// key is stored with 1ns of TTL and its true TTL is 0 (see trueTTL).
	edge map[string]bool

	// seeded: miniredis's RNG has been seeded. SPOP, SRANDMEMBER and the
	// other random commands must not use the global RNG, but seeding it
	// costs a quarter of a node's boot and a lock scenario never sends
	// one, so preHook seeds it before the first command miniredis runs.
	seeded   bool
	fast     *fastPath // the fast path (off with LuaInterpreted) and the node's own connection
	fastDone bool      // the fast path answered the command Do is running
	// lag is expiry-clock time that has passed but that miniredis's TTLs
	// (durations that only FastForward shortens) do not reflect yet: a
	// key's true TTL is its miniredis TTL minus lag. While no key can
	// expire (see minExpire) advancing only adds to lag, which spares a
	// FastForward (a sort of all keys) on every advance; syncTTLs applies
	// it before anything reads or writes miniredis's TTLs other than
	// trueTTL. Zero whenever fieldTTLs is set.
	lag time.Duration
	// fieldTTLs: a command that may give a hash field its own TTL has run
	// since boot. Those expire by FastForward too, unseen by minExpire, so
	// the node then tells miniredis of every advance at once.
	fieldTTLs bool
	// minExpire is a lower bound on every key's absolute expiry (by the
	// expiry clock) while the bound is valid: advance skips the scan of all
	// keys when the clock stays below it. It is lowered by every write whose
	// keys are known and reset to minExpireUnknown by the rest.
	minExpire time.Duration

	outbox []Effect // effects not yet taken by TakeEffects
	pre    []Effect // scratch: touched keys' states before a write
	// The command Do is running: the keys it may write, whether their
	// states before it are in pre yet (capturePre), and whether Do's
	// tracked key existed before, if it is not among them.
	touched   []string
	preRead   bool
	preKey    string // Do's tracked key when it is not in touched
	keyBefore bool   // whether preKey existed
	// The tracked key's state right after the last command, when Do read
	// it (the command wrote it): the checker's grant needs its value and
	// TTL, and asking miniredis again would read the same.
	keyAfter   Effect
	keyAfterOK bool
	aof        appendLog

	// Replication and failure detection (replication_stream.go, sentinel.go).
	upstream   *replStream   // the stream feeding this replica; nil for a master
	downstream []*replStream // the streams this master feeds, in attach order
	watch      sentinelWatch // the replica's view of its master's health
	replacedBy *Node         // a stale master: the replica promoted in its place
	replacedAt time.Duration // when that happened
	crashedAt  time.Duration // the last crash, for explanations
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
	scratch []byte // reused to encode the fast path's replies
}

// peerBufSize is the size of a connection's reply writer. Replies go to a
// bytes.Buffer, so buffering gains nothing; bufio's default of 4 KiB per
// connection was most of a small world's memory (an explore run builds a
// world, its nodes and their connections, many times a second).
const peerBufSize = 64

// NewNode starts a node that is up, empty, and a master.
func NewNode(cfg NodeConfig) *Node {
	switch cfg.Persistence {
	case "":
		cfg.Persistence = PersistNone
	case PersistNone, PersistEverysec, PersistAlways:
	default:
		// The scenario loader validates this; reaching here is a bug.
		panic(fmt.Sprintf("model: unknown persistence %q", cfg.Persistence))
	}
	n := &Node{cfg: cfg, aof: appendLog{mode: cfg.Persistence}}
	n.boot(0)
	return n
}

// boot starts a fresh, empty miniredis at true time now. A restart gets a new
// instance on purpose: the script cache and all connection state are lost,
// exactly as on a real restart (EVALSHA answers NOSCRIPT afterwards).
func (n *Node) boot(now time.Duration) {
	m := miniredis.NewMiniRedis()
	c, err := m.Dial() // creates the server without a TCP listener
	if err != nil {
		panic("model: miniredis: " + err.Error())
	}
	c.Close()
	n.seeded = false // see preHook
	n.m = m
	n.db0 = m.DB(0)
	n.srv = m.Server()
	n.conns = map[string]*nodeConn{}
	n.edge = nil
	n.lag, n.fieldTTLs = 0, false
	n.minExpire = noExpiry // empty
	n.up = true
	n.lastE = n.expiryClock(now)
	n.lastWall = n.clock.Wall(now)
	m.SetTime(Epoch.Add(n.lastWall))
	n.fast = newFastPath(n, !n.cfg.LuaInterpreted)
	// One hook does both jobs (miniredis has one slot): READONLY on a
	// replica, the Lua fast path on a master.
	n.srv.SetPreHook(n.preHook)
}

// Name is the node's name ("redis-1").
func (n *Node) Name() string { return n.cfg.Name }

// Config is the configuration the node was created with.
func (n *Node) Config() NodeConfig { return n.cfg }

// Clock is the node's own clock. Change it through JumpClock and SetClockRate
// so that keys expire at the moment of the fault.
func (n *Node) Clock() *sim.Clock { return &n.clock }

// Up reports whether the node is running (crashed nodes are down).
func (n *Node) Up() bool { return n.up }

// Loading reports whether a restarted node is still refusing commands with
// -LOADING at true time now.
func (n *Node) Loading(now time.Duration) bool { return n.up && now < n.loadingUntil }

func (n *Node) conn(name string) *nodeConn {
	c := n.conns[name]
	if c == nil {
		c = &nodeConn{}
		c.peer = server.NewPeer(bufio.NewWriterSize(&c.buf, peerBufSize))
		c.rd = bufio.NewReaderSize(&c.buf, 64)
		n.conns[name] = c
	}
	return c
}

// Do runs one command at true time now on connection conn (created on first
// use). The reply has the types server.ParseReply gives: nil, string, int,
// []any, server.Simple. A Redis error reply comes back as (nil, RedisError);
// a crashed node gives (nil, ErrDown).
//
// Before the command runs the node's time is advanced to now, so keys whose
// expiry has passed by the node's clock are gone (their deletions become
// effects, as Redis propagates a DEL when a key expires). After a write, the
// post-state of every key it changed is appended to the log and to the
// effects that TakeEffects returns.
func (n *Node) Do(now time.Duration, conn string, args ...string) (any, error) {
	r, _, err := n.do(now, conn, "", args)
	return r, err
}

// presence is whether a key existed before and after a command.
type presence struct{ before, after bool }

// unchanged is the presence of key when a command changed nothing.
func (n *Node) unchanged(key string) presence {
	if key == "" {
		return presence{}
	}
	x := n.db().Exists(key)
	return presence{x, x}
}

// do is Do that also reports whether key (unless "") existed just before
// the command ran (after the node's clock was advanced to now) and right
// after it: the checker's ground truth about the lock key, read from the
// key states Do reads anyway for a write that touches it. A down node has
// no keys.
func (n *Node) do(now time.Duration, conn, key string, args []string) (any, presence, error) {
	if !n.up {
		return nil, presence{}, ErrDown
	}
	n.advance(now)
	if now < n.loadingUntil {
		return nil, n.unchanged(key), errLoading
	}
	if len(args) == 0 {
		return nil, n.unchanged(key), RedisError("ERR empty command")
	}
	cmd := strings.ToUpper(args[0])
	c := n.conn(conn)

	spec, isWrite := writeCommands[cmd]
	if connStateCommands[cmd] {
		c.tainted = true
	}
	if isWrite && n.replica && spec != keysScript {
		// Scripts may run on a replica and only fail if they call a write
		// command (preHook); plain writes are refused up front.
		return nil, n.unchanged(key), errReadOnly
	}

	var touched []string
	queuedCmd := c.multi && cmd != "EXEC" && cmd != "DISCARD" && cmd != "MULTI" && cmd != "WATCH"
	switch {
	case queuedCmd:
		// Queued: the write happens at EXEC, so remember what it touches.
		if isWrite {
			c.queued = append(c.queued, n.touchedKeys(spec, args)...)
		}
	case cmd == "EXEC":
		touched, c.queued, c.multi = c.queued, nil, false
	case cmd == "DISCARD":
		c.queued, c.multi = nil, false
	case isWrite:
		touched = n.touchedKeys(spec, args)
	}

	// The touched keys' states before the command are read just before
	// its first change (capturePre, also called by the fast path): a fast
	// answer that only reads (SET NX on a held lock, a release by a
	// non-owner: most of a contended lock's commands) needs none of them.
	if len(touched) > 0 {
		touched = dedupe(touched)
	}
	n.touched, n.pre, n.preRead = touched, n.pre[:0], false
	n.keyAfter, n.keyAfterOK = Effect{}, false
	tracked := -1 // key's index in touched
	for i, k := range touched {
		if k == key {
			tracked = i
		}
	}
	n.preKey = ""
	if tracked < 0 {
		n.preKey = key
	}

	c.buf.Reset()
	n.fastDone = false
	if !n.replica {
		// The fast path answers the lock commands without miniredis's
		// dispatcher; its reply is the bytes miniredis would send.
		var r plainReply
		if r, n.fastDone = n.fast.answer(c, cmd, args[1:]); n.fastDone {
			c.scratch = r.appendRESP(c.scratch[:0])
			c.buf.Write(c.scratch)
		}
	}
	if !n.fastDone {
		n.capturePre()
		switch cmd {
		case "EVAL", "EVALSHA", "SCRIPT", "EXEC":
			n.fast.loadCached()
		}
		n.syncTTLs()
		if !noFieldTTLs(cmd, isWrite, spec) {
			n.fieldTTLs = true
		}
		n.srv.Dispatch(c.peer, args)
		n.refreshDB(cmd)
		c.peer.Flush()
	}

	var p presence
	pre := n.pre
	if !n.preRead {
		// The fast path only read: the touched keys are as they were.
		touched = nil
		switch {
		case key == "":
		case n.fast.seenKey == key:
			p.before = n.fast.seenExists
		default:
			p.before = n.db().Exists(key)
		}
		p.after = p.before
	} else {
		switch {
		case tracked >= 0:
			p.before = !pre[tracked].Deleted
		case key != "":
			p.before = n.keyBefore
		}
		p.after = p.before
		if key != "" && tracked < 0 {
			p.after = n.db().Exists(key)
		}
	}
	for i, k := range touched {
		post := n.keyState(k)
		if i == tracked {
			p.after = !post.Deleted
			n.keyAfter, n.keyAfterOK = post, true
		}
		if !post.sameState(pre[i]) {
			n.record(now, post)
		}
		if post.Expires && post.ExpireAt < n.minExpire {
			n.minExpire = post.ExpireAt
		}
	}
	if !c.multi && !expiryKnown(cmd, isWrite, n.fastDone) {
		n.minExpire = minExpireUnknown
	}
	clear(pre) // drop references to values
	n.touched = nil

	reply, err := c.parse()
	if err == nil && cmd == "MULTI" {
		c.multi = true
	}
	if err != nil && cmd == "EVAL" && !queuedCmd && evalNumkeysValid(args) {
		// Redis caches a script as soon as it compiles, even if running it
		// then fails; miniredis only after a successful run. Load it, so a
		// later EVALSHA finds it as on Redis (a script that does not
		// compile fails to load, as on Redis).
		n.fast.call("SCRIPT", "LOAD", args[1])
	}
	return reply, p, err
}

// capturePre reads the states of the keys the running command may write,
// before its first change to the data: Do diffs them against the states
// after it. The fast path calls it (through fastPath.writing) before it
// writes; Do before it dispatches. Only the first call reads.
func (n *Node) capturePre() { n.capturePreKnowing("", nil) }

// capturePreKnowing is capturePre when the caller already knows something:
// absent names a key it found missing (a SET NX about to create it), whose
// state is then not read again; the keys in deleting are about to be
// deleted, and their states are left for delete to complete (see delKeys).
func (n *Node) capturePreKnowing(absent string, deleting []string) {
	if n.preRead {
		return
	}
	n.preRead = true
	if n.preKey != "" {
		n.keyBefore = n.db().Exists(n.preKey)
	}
	for _, k := range n.touched {
		if k == absent || slices.Contains(deleting, k) {
			n.pre = append(n.pre, Effect{Key: k, Deleted: true}) // what keyState reads for a missing key
			continue
		}
		n.pre = append(n.pre, n.keyState(k))
	}
}

// delKeys deletes keys from DB 0, the running command's first change or not,
// and returns how many existed. When it is the first, the states before of
// the keys it deletes are not read in full: a deleted key's state after is
// the same whatever it held, so Do's diff and its ground truth only need
// whether it existed, which each deletion reports.
func (n *Node) delKeys(keys []string) int {
	db := n.db()
	first := !n.preRead
	n.capturePreKnowing("", keys)
	count := 0
	for _, k := range keys {
		if !db.Del(k) {
			continue
		}
		count++
		if first {
			if i := slices.Index(n.touched, k); i >= 0 {
				n.pre[i].Deleted = false // it existed (only Deleted is compared: see above)
			}
		}
	}
	return count
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
	r, err := parseReply(b, c.rd, &c.buf)
	if err != nil {
		return nil, fmt.Errorf("model: bad reply %q: %w", b, err)
	}
	return r, nil
}

// record notes that key state e was written at true time now: it goes to
// the append-only log and to the outbox for replicas.
func (n *Node) record(now time.Duration, e Effect) {
	e.At = now
	if !n.replica { // a replica propagates nothing; its outbox would only grow
		n.outbox = append(n.outbox, e)
	}
	n.aof.append(e)
}

// How a write command names the keys it touches.
type keySpec uint8

const (
	keysFirst  keySpec = iota // args[1]
	keysAll                   // every argument (DEL, UNLINK)
	keysPairs                 // args[1], args[3], ... (MSET)
	keysTwo                   // args[1] and args[2] (RENAME, LMOVE, ...)
	keysScript                // EVAL/EVALSHA: numkeys then KEYS
	keysFlush                 // every key in the database
)

// writeCommands lists the commands that can change data, with where their
// keys are. Anything else is treated as a read (no log entry, allowed on a
// replica).
var writeCommands = func() map[string]keySpec {
	m := map[string]keySpec{}
	add := func(spec keySpec, names string) {
		for _, c := range strings.Fields(names) {
			m[c] = spec
		}
	}
	add(keysFirst, `SET SETNX SETEX PSETEX GETSET GETDEL GETEX APPEND SETRANGE
		INCR INCRBY INCRBYFLOAT DECR DECRBY
		EXPIRE PEXPIRE EXPIREAT PEXPIREAT PERSIST
		HSET HMSET HSETNX HINCRBY HINCRBYFLOAT HDEL
		RPUSH LPUSH RPUSHX LPUSHX LPOP RPOP LREM LSET LTRIM LINSERT
		SADD SREM SPOP
		ZADD ZREM ZINCRBY ZPOPMIN ZPOPMAX ZREMRANGEBYSCORE ZREMRANGEBYRANK`)
	add(keysAll, "DEL UNLINK")
	add(keysPairs, "MSET MSETNX")
	add(keysTwo, "RENAME RENAMENX RPOPLPUSH LMOVE SMOVE COPY")
	add(keysScript, "EVAL EVALSHA")
	add(keysFlush, "FLUSHALL FLUSHDB")
	return m
}()

// touchedKeys lists the keys a write command may change. Scripts are trusted
// to declare their keys in KEYS, as Redis requires; a script writing an
// undeclared key would change data without a log entry.
func (n *Node) touchedKeys(spec keySpec, args []string) []string {
	switch spec {
	case keysFirst:
		if len(args) > 1 {
			return args[1:2]
		}
	case keysAll:
		return args[1:]
	case keysPairs:
		var ks []string
		for i := 1; i < len(args); i += 2 {
			ks = append(ks, args[i])
		}
		return ks
	case keysTwo:
		if len(args) > 2 {
			return args[1:3]
		}
		return args[1:]
	case keysScript:
		if len(args) < 3 {
			return nil
		}
		nk, err := strconv.Atoi(args[2])
		if err != nil || nk < 0 || 3+nk > len(args) {
			return nil // miniredis answers with an error and changes nothing
		}
		return args[3 : 3+nk]
	case keysFlush:
		return n.m.Keys()
	}
	return nil
}

// dedupe drops repeated keys (DEL k k), keeping the first occurrence. The
// lists are short, so a quadratic scan beats a map.
func dedupe(ks []string) []string {
	if len(ks) < 2 {
		return ks
	}
	out := ks[:0:0]
	for i, k := range ks {
		dup := false
		for _, p := range ks[:i] {
			if p == k {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, k)
		}
	}
	return out
}

// connStateCommands change per-connection state that miniredis keeps out of
// reach (selected DB, pub/sub mode, authentication, protocol).
var connStateCommands = map[string]bool{
	"SELECT": true, "SUBSCRIBE": true, "PSUBSCRIBE": true, "SSUBSCRIBE": true,
	"AUTH": true, "HELLO": true, "RESET": true,
}

// preHook runs before every command miniredis dispatches, including the
// commands a Lua script calls. On a replica, a write fails the way it does on
// a real read-only replica, also from inside a script (so scripts on a
// replica always run in Lua). The fast path watches for SCRIPT FLUSH.
func (n *Node) preHook(c *server.Peer, cmd string, args ...string) bool {
	if !n.seeded {
		// The first command dispatched is never one a script or EXEC
		// dispatches from inside (that comes after its own), so
		// miniredis's lock, which Seed takes, is free here.
		n.seeded = true
		n.m.Seed(1)
	}
	if n.replica {
		if spec, ok := writeCommands[cmd]; ok && spec != keysScript {
			c.WriteError(string(errReadOnly))
			return true
		}
	}
	n.fast.hook(c, cmd)
	return false
}

// KeyInfo is one key as the node holds it, for display.
type KeyInfo struct {
	Key   string
	Type  string        // "string", "hash", "list", "set", "zset"
	Value string        // string value; "field=val ..." for hashes (sorted by field); items for lists and sets; "member=score ..." for sorted sets
	TTL   time.Duration // remaining by this node's clock; -1 for none
}

// Keys lists the keys alive at true time now, sorted by key. It only
// observes: it does not advance the node, so looking at a node (from the TUI,
// at any moment) can never change what the simulation does.
func (n *Node) Keys(now time.Duration) []KeyInfo {
	if !n.up {
		return nil
	}
	states := n.view(now)
	e := n.expiryClock(now)
	out := make([]KeyInfo, 0, len(states))
	for _, s := range states {
		ki := KeyInfo{Key: s.Key, Type: s.Type, Value: s.display(), TTL: -1}
		if s.Expires {
			ki.TTL = s.ExpireAt - e
		}
		out = append(out, ki)
	}
	return out
}

// view is every key's state as it stands at true time now, without
// advancing: absolute expiries are fixed, so a key is alive iff its expiry is
// not before the expiry clock's reading at now.
func (n *Node) view(now time.Duration) []Effect {
	e := n.expiryClock(now)
	var out []Effect
	for _, k := range n.m.Keys() {
		s := n.keyState(k)
		if s.Deleted || (s.Expires && s.ExpireAt < e) {
			continue
		}
		s.At = now
		out = append(out, s)
	}
	return out
}

// keyState reads key k's current state, with its absolute expiry by the
// node's expiry clock.
func (n *Node) keyState(k string) Effect {
	db := n.db()
	e := Effect{Key: k}
	// Lock keys are strings: one Get answers type and value at once, and
	// only another type needs the Type lookup (each is a round of
	// miniredis's lock).
	v, err := db.Get(k)
	switch {
	case err == nil:
		e.Type, e.Value = "string", v
	case err == miniredis.ErrKeyNotFound:
		e.Deleted = true
		return e
	default:
		e.Type = db.Type(k)
	}
	switch e.Type {
	case "string": // read above
	case "hash":
		fields, _ := db.HKeys(k) // sorted
		for _, f := range fields {
			e.Fields = append(e.Fields, f, db.HGet(k, f))
		}
	case "list":
		e.Fields, _ = db.List(k)
	case "set":
		e.Fields, _ = db.Members(k) // sorted
	case "zset":
		scores, _ := db.SortedSet(k)
		members := make([]string, 0, len(scores))
		for mb := range scores {
			members = append(members, mb)
		}
		sort.Strings(members) // map order must not reach the trace
		for _, mb := range members {
			e.Fields = append(e.Fields, mb, strconv.FormatFloat(scores[mb], 'g', -1, 64))
		}
	default:
		// Streams and HyperLogLogs are not used by any lock recipe; they are
		// shown but not persisted or replicated.
		e.Value = "(" + e.Type + ")"
	}
	if ttl, ok := n.trueTTLIn(db, k); ok {
		e.Expires = true
		e.ExpireAt = n.lastE + ttl
	}
	return e
}

// db is the database the node's data lives in: DB 0, which is what
// miniredis's direct API means too (the model never calls its Select).
// Holding on to it spares every read a lookup under miniredis's lock; only
// SWAPDB replaces it (see refreshDB).
func (n *Node) db() *miniredis.RedisDB { return n.db0 }

// refreshDB looks DB 0 up again after a command that may have run SWAPDB:
// SWAPDB itself, EXEC (it may be queued) or a script run in Lua.
func (n *Node) refreshDB(cmd string) {
	switch cmd {
	case "SWAPDB", "EXEC", "EVAL", "EVALSHA":
		if !n.fastDone {
			n.db0 = n.m.DB(0)
		}
	}
}

// writeState makes key e.Key hold e's value, expiring after ttl by the
// node's expiry clock (ignored unless e.Expires; ttl must be >= 0). Used by
// restart, replication and full resync, never by client commands.
func (n *Node) writeState(e Effect, ttl time.Duration) {
	n.syncTTLs() // a key created while TTLs lag must not be forwarded by the lag
	k := e.Key
	n.m.Del(k)
	delete(n.edge, k)
	switch e.Type {
	case "string":
		_ = n.m.Set(k, e.Value)
	case "hash":
		n.m.HSet(k, e.Fields...)
	case "list":
		_, _ = n.m.Push(k, e.Fields...)
	case "set":
		_, _ = n.m.SetAdd(k, e.Fields...)
	case "zset":
		for i := 0; i+1 < len(e.Fields); i += 2 {
			score, _ := strconv.ParseFloat(e.Fields[i+1], 64)
			_, _ = n.m.ZAdd(k, score, e.Fields[i])
		}
	default:
		return
	}
	if e.Expires {
		n.setTTL(k, ttl)
	}
}
