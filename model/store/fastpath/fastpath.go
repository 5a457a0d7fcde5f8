package fastpath

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"
)

// The Lua fast path. The store (Store.Exec) asks the fast path (Answer) first for every
// command a client sends to a master: scripts here, plain lock commands in
// plain.go.
//
// miniredis builds a fresh gopher-lua state for every EVAL and EVALSHA
// (75-130 µs, over 100x a plain command), which made the Lua scripts the
// simulator's bottleneck. The fast path recognises the project's own scripts
// (EVAL by exact source, EVALSHA by SHA1) and runs a Go twin of each
// instead. A twin issues the very commands the script's redis.call would
// issue, through the plain fast path (plain.go) or miniredis's
// dispatcher, so data and TTLs change exactly as under Lua, and the node's
// before/after effect detection sees the same writes. It writes the reply
// the way miniredis's luaToRedis would (a Lua number goes through float64,
// false becomes a null bulk).
//
// Anything the twin is not sure to reproduce byte for byte falls through to
// real Lua: an unknown script, a numkeys or argument count other than the
// script's own, repeated keys, a wrong key type or an unparsable argument
// (which make Lua raise an error), a connection inside MULTI or with
// connection state the twin cannot see (SELECT, pub/sub, AUTH, HELLO), and
// every script on a replica (where a write inside a script must fail with
// READONLY). A twin falls through only before its first write: whatever can
// make a later command fail is checked up front, so falling through never
// runs half a script twice.
//
// Atomicity comes from the simulator: exactly one command runs at a time.

// luaReply is what a script returns: an integer, or Lua false (null bulk).
type luaReply struct {
	null bool
	ok   bool // a status OK (redis.status_reply("OK"), a SET's reply)
	n    int
}

func luaInt(n int) luaReply { return luaReply{n: n} }

// luaFalse is `return false`, which miniredis sends as a null bulk.
var luaFalse = luaReply{null: true}

// luaOK is a script's status OK.
var luaOK = luaReply{ok: true}

// fastScript is one script with a Go twin. To add a script, add one entry to
// fastScripts.
type fastScript struct {
	name string
	src  string
	keys int // the numkeys the twin handles (any other falls through)
	argv int // the number of ARGV the twin handles
	// run executes the script's logic. It returns ok=false, having written
	// nothing, when real Lua must decide (a command failed, an argument
	// would make Lua raise an error).
	run func(x *Path, keys, argv []string) (r luaReply, ok bool)

	sha     string // SHA1 of src, as EVALSHA names it: set by fastBySHA (read it through shaOf)
	label   string // "<name>", how the trace shows the script
	numkeys string // keys as miniredis's numkeys argument, canonical form
}

// fastScripts lists every script of scripts.go that has a Go twin.
var fastScripts = []*fastScript{
	{name: "release", src: ScriptRelease, keys: 1, argv: 1, run: fastRelease},
	{name: "renew", src: ScriptRenew, keys: 1, argv: 2, run: fastRenew},
	{name: "fenced-acquire", src: ScriptFencedAcquire, keys: 2, argv: 2, run: fastFencedAcquire},
	{name: "reentrant-acquire", src: ScriptReentrantAcquire, keys: 1, argv: 2, run: fastReentrantAcquire},
	{name: "reentrant-release", src: ScriptReentrantRelease, keys: 1, argv: 1, run: fastReentrantRelease},
	{name: "reentrant-renew", src: ScriptReentrantRenew, keys: 1, argv: 2, run: fastReentrantRenew},
	{name: "fair-acquire", src: ScriptFairAcquire, keys: 3, argv: 4, run: fastFairAcquire},
	{name: "reentrant-fenced-acquire", src: ScriptReentrantFencedAcquire, keys: 2, argv: 2, run: fastReentrantFencedAcquire},
	{name: "regrant-acquire", src: ScriptRegrantAcquire, keys: 1, argv: 2, run: fastRegrantAcquire},
	{name: "touch-or-set", src: ScriptTouchOrSet, keys: 1, argv: 2, run: fastTouchOrSet},
	// Real libraries' scripts (the harness); same twins where the logic is.
	{name: "redsync-delete", src: ScriptRedsyncDelete, keys: 1, argv: 1, run: fastRedsyncDelete},
	{name: "redsync-touch", src: ScriptRedsyncTouch, keys: 1, argv: 2, run: fastRenew},
	{name: "redsync-touch-setnx", src: ScriptRedsyncTouchSetNX, keys: 1, argv: 2, run: fastRedsyncTouchSetNX},
	{name: "redislock-release", src: ScriptRedislockRelease, keys: 1, argv: 1, run: fastRelease},
	{name: "redislock-refresh", src: ScriptRedislockRefresh, keys: 1, argv: 2, run: fastRenew},
	{name: "redislock-obtain", src: ScriptRedislockObtain, keys: 1, argv: 3, run: fastRedislockObtain},
}

// The twins' names in the trace and numkeys in canonical form, set at
// start: both are cheap (Itoa of a small number allocates nothing).
func init() {
	for _, s := range fastScripts {
		s.numkeys = strconv.Itoa(s.keys)
		s.label = "<" + s.name + ">"
	}
}

// fastBySHA finds a twin by EVALSHA's hash. It is built (every script's
// SHA1 with it) on the first EVALSHA or SHA asked for: a run whose
// clients send EVAL, as the lock recipes do, never needs one, and hashing
// every script was most of the package's start in every process.
var fastBySHA = sync.OnceValue(func() map[string]*fastScript {
	bySHA := make(map[string]*fastScript, len(fastScripts))
	var src []byte // one buffer for every source
	for _, s := range fastScripts {
		src = append(src[:0], s.src...)
		h := sha1.Sum(src)
		s.sha = hex.EncodeToString(h[:])
		bySHA[s.sha] = s
	}
	return bySHA
})

// shaOf is s's SHA1 as EVALSHA names it.
func shaOf(s *fastScript) string {
	fastBySHA()
	return s.sha
}

// scriptBySrc is the twin of EVAL's source src, or nil: every EVAL of a
// lock command (and its trace line) asks, and the source is then the very
// string of scripts.go, which == recognises by its pointer at once. A map
// by source hashes the whole body each time (the judge split made that two
// per EVAL, ~3% of a hold cycle).
func scriptBySrc(src string) *fastScript {
	for _, s := range fastScripts {
		if s.src == src {
			return s
		}
	}
	return nil
}

// ScriptName names one of the project's scripts in the trace instead of
// printing its body: "<release>"; "<script>" for any other source.
func ScriptName(src string) string {
	if s := scriptBySrc(src); s != nil {
		return s.label
	}
	return "<script>"
}

// Host is what the fast path needs of the store whose miniredis it
// answers for: the data, and notice of each write so that the store's
// before/after effect detection and its TTL mapping stay right.
type Host interface {
	// DB is the miniredis DB 0 the commands run on.
	DB() *miniredis.RedisDB
	// Writing comes before the fast path's first change to the data
	// through DB: the touched keys' states before the command must be
	// read now.
	Writing()
	// WritingAbsent is Writing when the command found key missing (it
	// is about to create it): its state need not be read. A method of
	// its own, not Writing(""): "" is a key like any other.
	WritingAbsent(key string)
	// Dispatching is Writing before the fast path has miniredis's
	// dispatcher run a command, which also brings miniredis's TTLs up to
	// date (a handler reads and writes them).
	Dispatching()
	// SetTTL gives key, which exists, a TTL of ttl > 0 from now by the
	// store's expiry clock: DB's SetTTL, with the time miniredis's TTLs
	// lag behind the store's clock added, so no other key's TTL has to be
	// brought up to date first.
	SetTTL(key string, ttl time.Duration)
	// WroteUnknown says the data changed in a way the fast path does not
	// describe: the store reads the keys back.
	WroteUnknown()
	// WroteString says the command's last write left key a string holding
	// value that expires ttl from now.
	WroteString(key, value string, ttl time.Duration)
	// Del deletes keys (DEL) and returns how many existed.
	Del(keys []string) int
	// DelKey is Del of one key: no slice to copy (see plain's DEL).
	DelKey(key string) bool
}

// peerBufSize is the size of the twins' connection's reply writer: replies
// go to a bytes.Buffer, so buffering gains nothing (store's conns do the
// same).
const peerBufSize = 64

// Script is one of the project's Lua scripts that the fast path answers
// with a Go twin, as the differential and conformance tests see it.
type Script struct {
	Name, Src, SHA string
	Keys, Argv     int // the numkeys and ARGV count the twin handles
}

// Scripts lists the scripts with a Go twin, in a fixed order.
func Scripts() []Script {
	out := make([]Script, len(fastScripts))
	for i, s := range fastScripts {
		out[i] = Script{Name: s.name, Src: s.src, SHA: shaOf(s), Keys: s.keys, Argv: s.argv}
	}
	return out
}

// Path is one miniredis instance's fast-path state; the store makes a new
// one with the instance (and keeps it with the instance when it is
// reused), so it never outlives the script cache it mirrors.
type Path struct {
	on   bool // answer scripts and plain commands; off, the store only uses the connection
	st   Host
	srv  *server.Server
	peer *server.Peer // the twins' own connection: never in MULTI, DB 0
	buf  bytes.Buffer
	rd   *bufio.Reader
	args []string // call's copy of its arguments
	del  []string // plain's copy of DEL's keys, for Host.Del
	// msText and ms are the last TTL argument plainMillis accepted and its
	// value: a lock client sends the same TTL with every SET (millis).
	msText string
	ms     time.Duration
	// setKey and setValue are what the last SET NX PX the plain path
	// answered wrote, while setOK: the store calls ForgetString whenever
	// the data may have changed since (any write, dispatch, expiry, clock
	// jump or resync), so until then key holds value (ownedBeforeWrite).
	setKey, setValue string
	setOK            bool
	// seenKey is a key the command being answered found to exist or not
	// (seenExists): after a command that only read, Do takes its ground
	// truth from here instead of asking miniredis again.
	seenKey    string
	seenExists bool
	// cached holds the scripts known to be in miniredis's script cache. It
	// may miss some (a script loaded inside MULTI) but never holds one that
	// is not there: any SCRIPT or EXEC command from a client clears it.
	cached map[*fastScript]bool
	// hot is the script the last EVALSHA or EVAL ran, known to be in
	// cached: a lock's release is the same script every time, and the
	// lookups of a 40-byte key per release showed in profiles. Cleared
	// with cached.
	hot *fastScript
	// unloaded are scripts in cached that a fast EVAL cached but that are
	// not in miniredis's cache yet: SCRIPT LOAD compiles the script in
	// gopher-lua, a cost worth paying only if something looks (see
	// loadCached). Each new instance (an explore run builds five) would
	// otherwise compile every script it is sent once.
	unloaded []*fastScript
}

// New is the fast path of a fresh miniredis instance, whose server is srv,
// answering for h; on false, it answers nothing (--lua=interpreted) and
// is only the store's own connection (LoadScript).
func New(h Host, srv *server.Server, on bool) *Path {
	f := &Path{on: on, st: h, srv: srv, cached: map[*fastScript]bool{}}
	f.peer = server.NewPeer(bufio.NewWriterSize(&f.buf, peerBufSize))
	f.rd = bufio.NewReaderSize(&f.buf, 64)
	return f
}

// call runs one command on the twins' connection and parses its reply, as
// miniredis's redis.call does (a -ERR reply is the error). A plain command
// the plain fast path can answer skips the dispatcher and the reply's round
// trip through RESP.
func (f *Path) call(args ...string) (any, error) {
	if f.on {
		if r, ok := f.plain(CmdOf(args[0]), args[1:]); ok {
			return r.Value(), nil
		}
	}
	f.st.Dispatching()
	f.buf.Reset()
	// A copy, so that the callers' variadic slices stay on their stacks.
	f.args = append(f.args[:0], args...)
	f.srv.Dispatch(f.peer, f.args)
	f.peer.Flush()
	return ParseReply(f.buf.Bytes(), f.rd, &f.buf)
}

// mustCall is call for a command that cannot fail once the twin has
// checked its preconditions. A failure here means the twin has already
// written and can no longer fall through, so it is a bug, not an input.
func (f *Path) mustCall(script string, args ...string) any {
	r, err := f.call(args...)
	if err != nil {
		// Joined, not args itself: passing the slice to fmt would move
		// every caller's variadic arguments to the heap.
		panic(fmt.Sprintf("model: Lua fast path %s: [%s] after a write: %v", script, strings.Join(args, " "), err))
	}
	return r
}

// Answer is the fast path: Store.Exec asks it first for every command
// (cmd, by its number, and args after it) a client sends to a master, on a
// connection that is not in MULTI (the command must be queued) and has no
// state it cannot see (SELECT, pub/sub, AUTH, HELLO); it dispatches to
// miniredis only when Answer declines. It answers the project's scripts
// (EVAL by source, EVALSHA by SHA1) with their Go twins and the plain lock
// commands with plain (plain.go), and declines, having changed nothing,
// when it is off and whenever a command is not one it reproduces exactly.
func (f *Path) Answer(cmd Cmd, args []string) (Reply, bool) {
	f.seenKey = ""
	if !f.on {
		return Reply{}, false
	}
	if cmd == CmdEval || cmd == CmdEvalSHA {
		r, ok := f.script(cmd, args)
		if !ok {
			return Reply{}, false
		}
		if r.null {
			return Reply{kind: plainNull}, true
		}
		if r.ok {
			return Reply{kind: plainOK}, true
		}
		return Reply{kind: plainInt, n: r.n}, true
	}
	if cmd == CmdSet { // the lock's SET, without plain's switch
		return f.plainSet(f.st.DB(), args)
	}
	return f.plain(cmd, args)
}

// saw notes whether key exists, as the command being answered found it.
func (f *Path) saw(key string, exists bool) { f.seenKey, f.seenExists = key, exists }

// Seen is the key the last command Answer answered found to exist or not
// ("" if none): after a command that only read, the store takes its
// ground truth from here instead of asking miniredis again.
func (f *Path) Seen() (key string, exists bool) { return f.seenKey, f.seenExists }

// writing is called before the fast path changes data through the DB:
// the touched keys' states before the command must be read now (the store
// diffs them against the states after it; Host.Writing). A TTL it sets
// goes through Host.SetTTL, and a dispatch through call.
func (f *Path) writing() { f.st.Writing() }

// writingAbsent is writing when the command found key missing (it is about
// to create it): its state before need not be read again.
func (f *Path) writingAbsent(key string) { f.st.WritingAbsent(key) }

// Hook is the fast path's part of the store's pre-dispatch hook, which sees
// every command miniredis dispatches: SCRIPT FLUSH (possibly queued in a
// transaction that EXEC runs) empties miniredis's script cache, so forget
// what we knew.
func (f *Path) Hook(c *server.Peer, cmd string) {
	if (cmd == "SCRIPT" || cmd == "EXEC") && c != f.peer {
		f.forgetCached()
	}
}

// LoadCached puts the scripts a fast EVAL cached into miniredis's script
// cache. The store calls it before dispatching any command that can see
// that cache (EVALSHA, SCRIPT, EXEC, and EVAL, whose script might call
// SCRIPT).
func (f *Path) LoadCached() {
	for _, s := range f.unloaded {
		f.mustCall(s.name, "SCRIPT", "LOAD", s.src)
	}
	f.unloaded = f.unloaded[:0]
}

// LoadScript runs SCRIPT LOAD src on the fast path's own connection (an
// EVAL that failed after compiling: Redis has cached it, miniredis not).
// A script that does not compile fails to load, as on Redis.
func (f *Path) LoadScript(src string) { _, _ = f.call("SCRIPT", "LOAD", src) }

// Reset empties the fast path as New makes it, keeping its buffers: its
// instance is being emptied for reuse (FLUSHALL, SCRIPT FLUSH), and no
// store answers through it until Attach.
func (f *Path) Reset() {
	f.st = nil
	f.buf.Reset()
	f.rd.Reset(&f.buf)
	// What miniredis keeps on a peer (store's resetPeer): the twins'
	// connection never changes anything else.
	f.peer.Ctx, f.peer.Resp3, f.peer.SwitchResp3, f.peer.ClientName = nil, false, nil, ""
	clear(f.args)
	f.del = f.del[:0]
	f.args, f.seenKey, f.seenExists, f.unloaded = f.args[:0], "", false, nil
	f.setKey, f.setValue, f.setOK = "", "", false
	f.forgetCached()
}

// forgetCached forgets which scripts miniredis's cache holds.
func (f *Path) forgetCached() {
	clear(f.cached)
	f.hot = nil
}

// Attach makes a reset fast path answer for h (on) or not.
func (f *Path) Attach(h Host, on bool) { f.st, f.on = h, on }

// script runs the Go twin of EVAL or EVALSHA with args (script or SHA,
// numkeys, keys, argv), or returns ok=false, having written nothing.
func (f *Path) script(cmd Cmd, args []string) (luaReply, bool) {
	if len(args) < 2 {
		return luaReply{}, false
	}
	var s *fastScript
	hot := false
	switch {
	case cmd == CmdEval:
		s = scriptBySrc(args[0])
	case f.hot != nil && args[0] == shaOf(f.hot):
		s, hot = f.hot, true
	default:
		s = fastBySHA()[args[0]]
	}
	if s == nil || args[1] != s.numkeys || len(args) != 2+s.keys+s.argv {
		return luaReply{}, false
	}
	if cmd == CmdEvalSHA && !hot && !f.cached[s] {
		// Loaded by the client (SCRIPT LOAD), or NOSCRIPT: ask.
		r, err := f.call("SCRIPT", "EXISTS", shaOf(s))
		if a, ok := r.([]any); err != nil || !ok || len(a) != 1 || a[0] != 1 {
			return luaReply{}, false
		}
		f.cached[s] = true
	}
	if cmd == CmdEvalSHA {
		f.hot = s // cached: checked above
	}
	keys, argv := args[2:2+s.keys], args[2+s.keys:]
	for i := range keys {
		for _, k := range keys[:i] {
			if k == keys[i] {
				return luaReply{}, false // a twin assumes distinct keys
			}
		}
	}
	r, ok := s.run(f, keys, argv)
	if !ok {
		return luaReply{}, false
	}
	if cmd == CmdEval && s != f.hot && !f.cached[s] {
		// A successful EVAL caches the script, so a later EVALSHA works:
		// it is loaded into miniredis before anything can tell.
		f.unloaded = append(f.unloaded, s)
		f.cached[s] = true
	}
	f.hot = s // in cached either way; the next EVAL of it skips the lookup
	return r, true
}

// luaNum is what a Redis integer reply becomes after a round trip through
// Lua: redis.call makes it a Lua number (float64), luaToRedis writes
// int(number). It only differs from n beyond 2^53.
func luaNum(n int) int { return int(float64(n)) }

// luaToNumber is gopher-lua's tonumber(s) for a string in base 10: nil
// (false here) when it does not parse.
func luaToNumber(s string) (float64, bool) {
	str := strings.Trim(s, " \n\t")
	if strings.Contains(str, ".") {
		v, err := strconv.ParseFloat(str, 64)
		return v, err == nil
	}
	base := 10
	if strings.HasPrefix(strings.ToLower(str), "0x") {
		base, str = 16, str[2:]
	}
	v, err := strconv.ParseInt(str, base, 64)
	return float64(v), err == nil
}

// luaString is how gopher-lua turns a number into a redis.call argument
// (LNumber.String).
func luaString(v float64) string {
	if v == float64(int64(v)) {
		return fmt.Sprint(int64(v))
	}
	return fmt.Sprint(v)
}

// validPX reports whether SET ... PX ms accepts ms (miniredis: an int > 0).
func validPX(ms string) bool {
	n, err := strconv.Atoi(ms)
	return err == nil && n > 0
}

// validPEXPIRE reports whether PEXPIRE key ms accepts ms (any int).
func validPEXPIRE(ms string) bool {
	_, err := strconv.Atoi(ms)
	return err == nil
}

// getEquals is `redis.call(cmd..., key) == want` for GET or HGET. ok is false
// when the read failed (wrong type), which makes Lua raise an error.
func (f *Path) getEquals(want string, args ...string) (eq, ok bool) {
	if r, ok := f.plain(CmdOf(args[0]), args[1:]); ok { // GET: no boxing of the value
		return r.kind == plainBulk && r.s == want, true
	}
	r, err := f.call(args...)
	if err != nil {
		return false, false
	}
	s, isStr := r.(string)
	return isStr && s == want, true
}

// owned is the check every compare-and-act script starts with: whether
// read (GET key, or HGET key holder) gives token. decided is true when
// the script's answer is known already: 0 for another owner, or ok=false
// to fall through to Lua (the read failed, so Lua raises).
func (f *Path) owned(token string, read ...string) (r luaReply, ok, decided bool) {
	eq, ok := f.getEquals(token, read...)
	switch {
	case !ok:
		return luaReply{}, false, true
	case !eq:
		return luaInt(0), true, true
	}
	return luaReply{}, true, false
}

// pexpire is redis.call("pexpire", key, ms) as a script's reply; ok=false
// (a bad ttl, nothing written yet) falls through to Lua, which raises.
func (f *Path) pexpire(key, ms string) (luaReply, bool) {
	r, err := f.call("PEXPIRE", key, ms)
	if err != nil {
		return luaReply{}, false
	}
	return luaInt(luaNum(r.(int))), true
}

// ownedBeforeWrite is owned(token, "GET", key) for a script that, when
// token holds key, writes key next at the same instant (DEL, PEXPIRE). The
// GET is skipped when the store knows key's value and it is token: its one
// effect on miniredis, the key's LRU clock set to now, is one that write
// makes again (PEXPIRE's EXISTS and SetTTL) or removes with the key (DEL),
// so the data ends as Lua leaves it. A lock's release by its owner is then
// one call into miniredis, not two.
func (f *Path) ownedBeforeWrite(token, key string) (r luaReply, ok, decided bool) {
	if f.setOK && f.setKey == key && f.setValue == token {
		return luaReply{}, true, false
	}
	return f.owned(token, "GET", key)
}

// ForgetString forgets the string the last SET NX PX wrote: the data may
// have changed (the store calls it; see setKey).
func (f *Path) ForgetString() { f.setOK = false }

// KnownString is the key and value the last SET NX PX wrote, if nothing
// may have changed the data since (ok): what the store's tests check
// against miniredis.
func (f *Path) KnownString() (key, value string, ok bool) { return f.setKey, f.setValue, f.setOK }

// fastRelease is ScriptRelease: compare-and-delete.
func fastRelease(f *Path, keys, argv []string) (luaReply, bool) {
	if r, ok, decided := f.ownedBeforeWrite(argv[0], keys[0]); decided {
		return r, ok
	}
	return luaInt(f.delOne(keys[0])), true
}

// delOne is redis.call("del", key) after the twin's checks, as a Lua
// number: what call would answer through the plain fast path, without
// building, copying and boxing its arguments and reply on a lock's every
// release.
func (f *Path) delOne(key string) int {
	if f.st.DelKey(key) {
		return 1
	}
	return 0
}

// fastRenew is ScriptRenew: compare-and-PEXPIRE.
func fastRenew(f *Path, keys, argv []string) (luaReply, bool) {
	if r, ok, decided := f.ownedBeforeWrite(argv[0], keys[0]); decided {
		return r, ok
	}
	return f.pexpire(keys[0], argv[1])
}

// fastTouchOrSet is ScriptTouchOrSet: compare-and-PEXPIRE, or SET NX PX
// where the key is gone.
func fastTouchOrSet(f *Path, keys, argv []string) (luaReply, bool) {
	eq, ok := f.getEquals(argv[0], "GET", keys[0])
	switch {
	case !ok:
		return luaReply{}, false
	case eq:
		return f.pexpire(keys[0], argv[1])
	}
	r, err := f.call("SET", keys[0], argv[0], "PX", argv[1], "NX")
	if err != nil {
		return luaReply{}, false // bad ttl: nothing written, Lua raises
	}
	if r == nil {
		return luaInt(0), true
	}
	return luaInt(1), true
}

// fastFencedAcquire is ScriptFencedAcquire: SET NX PX, then INCR the fence.
func fastFencedAcquire(f *Path, keys, argv []string) (luaReply, bool) {
	// INCR comes after the SET, so it must be known to succeed first.
	r, err := f.call("GET", keys[1])
	if err != nil {
		return luaReply{}, false
	}
	if s, isStr := r.(string); isStr {
		if v, err := strconv.Atoi(s); err != nil || v == math.MaxInt {
			return luaReply{}, false
		}
	}
	r, err = f.call("SET", keys[0], argv[0], "NX", "PX", argv[1])
	if err != nil {
		return luaReply{}, false // bad ttl: nothing written
	}
	if r == nil {
		return luaFalse, true
	}
	return luaInt(luaNum(f.mustCall("fenced-acquire", "INCR", keys[1]).(int))), true
}

// fastReentrantAcquire is ScriptReentrantAcquire.
func fastReentrantAcquire(f *Path, keys, argv []string) (luaReply, bool) {
	if !validPEXPIRE(argv[1]) { // PEXPIRE comes after a write
		return luaReply{}, false
	}
	switch taken, ok := f.takeReentrant("reentrant-acquire", keys[0], argv[0], argv[1]); {
	case !ok:
		return luaReply{}, false
	case !taken:
		return luaInt(0), true
	}
	return luaInt(1), true
}

// takeReentrant is the reentrant scripts' shared steps: the holder hash's
// count goes up when token holds it, the hash is made when nobody does,
// and either way its TTL is set to px; taken is false when another token
// holds it (nothing written). ok is false when real Lua must decide (the
// count is not an integer: nothing written either).
func (f *Path) takeReentrant(name, key, token, px string) (taken, ok bool) {
	r, err := f.call("HGET", key, "holder")
	if err != nil {
		return false, false
	}
	holder, isStr := r.(string)
	switch {
	case isStr && holder == token:
		if _, err := f.call("HINCRBY", key, "count", "1"); err != nil {
			return false, false // count not an integer: nothing written
		}
	case r == nil:
		f.mustCall(name, "HSET", key, "holder", token, "count", "1")
	default:
		return false, true
	}
	f.mustCall(name, "PEXPIRE", key, px)
	return true, true
}

// fastReentrantRelease is ScriptReentrantRelease.
func fastReentrantRelease(f *Path, keys, argv []string) (luaReply, bool) {
	if r, ok, decided := f.owned(argv[0], "HGET", keys[0], "holder"); decided {
		return r, ok
	}
	r, err := f.call("HINCRBY", keys[0], "count", "-1")
	if err != nil {
		return luaReply{}, false
	}
	if luaNum(r.(int)) <= 0 {
		f.delOne(keys[0])
	}
	return luaInt(1), true
}

// fastReentrantRenew is ScriptReentrantRenew.
func fastReentrantRenew(f *Path, keys, argv []string) (luaReply, bool) {
	if r, ok, decided := f.owned(argv[0], "HGET", keys[0], "holder"); decided {
		return r, ok
	}
	return f.pexpire(keys[0], argv[1])
}

// fastFairAcquire is ScriptFairAcquire: drop waiters whose place expired,
// grant a free lock to the head of the queue (or to anyone if it is empty),
// otherwise join or stay in the queue.
func fastFairAcquire(f *Path, keys, argv []string) (luaReply, bool) {
	lock, queue, timeouts := keys[0], keys[1], keys[2]
	token, ttl := argv[0], argv[1]
	// Lua raises on tonumber(...) == nil only when it gets that far; falling
	// through whenever it could is simpler and just as correct.
	now, ok1 := luaToNumber(argv[2])
	place, ok2 := luaToNumber(argv[3])
	deadline := now + place
	if !ok1 || !ok2 || math.IsNaN(deadline) || math.IsInf(deadline, 0) || !validPX(ttl) {
		return luaReply{}, false
	}
	const name = "fair-acquire"
	wrote, ok := fairDropExpired(f, queue, timeouts, now)
	if !ok {
		return luaReply{}, false
	}
	if f.mustCall(name, "EXISTS", lock).(int) == 0 {
		r := f.mustCall(name, "LINDEX", queue, "0")
		first, isStr := r.(string)
		if r == nil || (isStr && first == token) {
			if r != nil {
				f.mustCall(name, "LPOP", queue)
				f.mustCall(name, "ZREM", timeouts, token)
			}
			f.mustCall(name, "SET", lock, token, "PX", ttl)
			return luaInt(1), true
		}
	}
	// The loop only called ZSCORE on the timeouts key if the queue had a
	// head; if it did not, nothing was written, so a wrong type here can
	// still fall through.
	r, ok := f.callUnlessWrote(name, wrote, "ZSCORE", timeouts, token)
	if !ok {
		return luaReply{}, false
	}
	if r == nil {
		f.mustCall(name, "RPUSH", queue, token)
	}
	f.mustCall(name, "ZADD", timeouts, luaString(deadline), token)
	return luaInt(0), true
}

// fairDropExpired is the fair lock's first loop: pop the waiters at the
// head of the queue whose place expired before now. wrote reports whether
// it popped any; ok false means Lua must decide, nothing written.
func fairDropExpired(f *Path, queue, timeouts string, now float64) (wrote, ok bool) {
	const name = "fair-acquire"
	for {
		r, ok := f.callUnlessWrote(name, wrote, "LINDEX", queue, "0")
		if !ok {
			return false, false
		}
		first, isStr := r.(string)
		if !isStr {
			return wrote, true
		}
		if r, ok = f.callUnlessWrote(name, wrote, "ZSCORE", timeouts, first); !ok {
			return false, false
		}
		s, isStr := r.(string)
		d, ok := luaToNumber(s)
		if !isStr || !ok || !(d < now) {
			return wrote, true
		}
		f.mustCall(name, "ZREM", timeouts, first)
		f.mustCall(name, "LPOP", queue)
		wrote = true
	}
}

// callUnlessWrote is call for a command that may fail (a wrong type) as
// long as the twin has written nothing: ok false then falls through to Lua.
// After a write a failure is a bug, as in mustCall.
func (f *Path) callUnlessWrote(script string, wrote bool, args ...string) (any, bool) {
	if wrote {
		return f.mustCall(script, args...), true
	}
	r, err := f.call(args...)
	return r, err == nil
}
