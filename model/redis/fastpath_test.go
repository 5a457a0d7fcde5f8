package redis

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"github.com/lockstep-sim/lockstep/model/store"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2/server"
)

// luaPair is nodes fed the same commands: one with the Lua fast path, one
// interpreting every script, and a reference that also has the fast path
// but never trusts its cached next expiry (minExpire), so every advance
// scans all keys as before that optimisation.
type luaPair struct {
	fast, slow, ref *Node
	now             time.Duration
	fastHits        int // scripts the fast path answered
	scripts         int // scripts sent
	plainHits       int // plain commands the fast path answered
	plains          int // plain commands sent (those it may answer)
}

func newLuaPair(cfg NodeConfig) *luaPair {
	slow := cfg
	slow.LuaInterpreted = true
	return &luaPair{fast: NewNode(cfg), slow: NewNode(slow), ref: NewNode(cfg)}
}

// nodes is every node of the pair.
func (p *luaPair) nodes() []*Node { return []*Node{p.fast, p.slow, p.ref} }

// do runs one command on both nodes and fails unless the replies are
// byte-identical, the effects equal, and the nodes agree on whether the
// lock key "lock" existed before and after (the checker's ground truth,
// which the fast path takes from what it read).
func (p *luaPair) do(t testing.TB, step int, conn string, args ...string) any {
	t.Helper()
	const key = "lock"
	rf, pf, ef := p.fast.DoTracked(p.now, conn, key, args)
	bf := rawReply(p.fast, conn)
	hit := p.fast.st.FastAnswered()
	rs, ps, es := p.slow.DoTracked(p.now, conn, key, args)
	bs := rawReply(p.slow, conn)
	if p.slow.st.FastAnswered() {
		t.Fatalf("step %d: %s: the interpreted node used the fast path", step, showArgs(args))
	}
	p.ref.st.DropExpiryBound()
	rr, pr, er := p.ref.DoTracked(p.now, conn, key, args)
	if br := rawReply(p.ref, conn); !bytes.Equal(bf, br) || fmt.Sprintf("%#v %v", rf, ef) != fmt.Sprintf("%#v %v", rr, er) {
		t.Fatalf("step %d at %v: %s\nfast: %q\nref:  %q", step, p.now, showArgs(args), bf, br)
	}
	for _, n := range p.nodes() {
		// What Do kept of the key equals asking the node again.
		if e, ok := n.st.LastKeyState(); ok {
			if got, want := n.PTTLOf(e), n.PTTL(p.now, key); got != want {
				t.Fatalf("step %d: %s: kept PTTL %v, node says %v", step, showArgs(args), got, want)
			}
			if got, want := e.Owner(), n.lockValue(key); got != want {
				t.Fatalf("step %d: %s: kept value %q, node says %q", step, showArgs(args), got, want)
			}
		}
	}
	if pf != ps || pf != pr {
		t.Fatalf("step %d at %v: %s: %q existed (before, after): fast %v, lua %v, ref %v",
			step, p.now, showArgs(args), key, pf, ps, pr)
	}
	cmd := strings.ToUpper(args[0])
	switch cmd {
	case "EVAL", "EVALSHA":
		p.scripts++
		if hit {
			p.fastHits++
		}
	case "SET", "SETNX", "GET", "DEL", "EXISTS", "PEXPIRE":
		p.plains++
		if hit {
			p.plainHits++
		}
	}
	if !bytes.Equal(bf, bs) || fmt.Sprintf("%#v %v", rf, ef) != fmt.Sprintf("%#v %v", rs, es) {
		t.Fatalf("step %d at %v: %s\nfast: %q (%#v, %v; fast path %v)\nlua:  %q (%#v, %v)",
			step, p.now, showArgs(args), bf, rf, ef, hit, bs, rs, es)
	}
	a, b, c := fmt.Sprint(p.fast.TakeEffects()), fmt.Sprint(p.slow.TakeEffects()), fmt.Sprint(p.ref.TakeEffects())
	if a != b || a != c {
		t.Fatalf("step %d: %s: effects differ\nfast: %s\nlua:  %s\nref:  %s", step, showArgs(args), a, b, c)
	}
	return rf
}

// rawReply is the bytes of the last reply on conn (nil if the command never
// reached miniredis, e.g. a down node).
func rawReply(n *Node, conn string) []byte {
	return bytes.Clone(n.st.LastReply(conn))
}

// same fails unless both nodes hold the same keys, values and TTLs.
func (p *luaPair) same(t testing.TB, step int) {
	t.Helper()
	a, b, c := p.fast.Keys(p.now), p.slow.Keys(p.now), p.ref.Keys(p.now)
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
		t.Fatalf("step %d at %v: keys differ\nfast: %v\nlua:  %v\nref:  %v", step, p.now, a, b, c)
	}
}

func showArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		for _, s := range store.Scripts() {
			switch a {
			case s.Src:
				a = "<" + s.Name + ">"
			case s.SHA:
				a = "<sha " + s.Name + ">"
			}
		}
		out[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(out, " ")
}

// TestFastPathBasics walks each script through its main branches and checks
// the fast path answered (not Lua) with Lua's reply.
func TestFastPathBasics(t *testing.T) {
	p := newLuaPair(NodeConfig{Name: "redis-1"})
	step := 0
	expect := func(want any, fast bool, conn string, args ...string) {
		t.Helper()
		step++
		got := p.do(t, step, conn, args...)
		if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
			t.Fatalf("%s = %#v, want %#v", showArgs(args), got, want)
		}
		if p.fast.st.FastAnswered() != fast {
			t.Fatalf("%s: fast path used = %v, want %v", showArgs(args), p.fast.st.FastAnswered(), fast)
		}
	}
	p.now = 1 * sec
	release, renew := scriptSHA(store.ScriptRelease), scriptSHA(store.ScriptRenew)
	expect(server.Simple("OK"), true, "a", "SET", "lock", "A", "NX", "PX", "30000")
	expect(nil, true, "b", "SET", "lock", "B", "NX", "PX", "30000")
	expect(0, true, "b", "SETNX", "lock", "B")
	expect(0, true, "a", "EVAL", store.ScriptRelease, "1", "lock", "B")
	expect(1, true, "a", "EVAL", store.ScriptRenew, "1", "lock", "A", "5000")
	expect(5000, false, "a", "PTTL", "lock")
	expect(1, true, "a", "PEXPIRE", "lock", "4000")
	expect(0, true, "a", "PEXPIRE", "nolock", "4000")
	expect(4000, false, "a", "PTTL", "lock")
	// EVAL cached the script, so EVALSHA finds it; renew was never sent by
	// EVAL before the flush below, so its SHA is unknown after it.
	expect(1, true, "b", "EVALSHA", release, "1", "lock", "A")
	expect(nil, true, "a", "GET", "lock")
	expect(1, true, "a", "SETNX", "lock", "C")
	expect("C", true, "a", "GET", "lock")
	expect(-1, false, "a", "PTTL", "lock")
	expect(server.Simple("OK"), true, "a", "set", "lock", "D", "px", "2000") // no NX: replaces, with a TTL
	expect(2000, false, "a", "PTTL", "lock")
	expect(server.Simple("OK"), true, "a", "SET", "lock", "E") // no PX: drops the TTL
	expect(-1, false, "a", "PTTL", "lock")
	expect(1, true, "a", "EXISTS", "lock", "nolock")
	expect(1, true, "a", "DEL", "lock", "lock:fence", "lock")
	// What the plain path leaves to miniredis: other options, bad TTLs.
	expect(server.Simple("OK"), false, "a", "SET", "lock", "F", "PX", "100", "NX")
	expect(server.Simple("OK"), false, "a", "SET", "lock", "F", "XX")
	expect(1, false, "a", "PEXPIRE", "lock", "100", "NX") // SET ... XX dropped the TTL
	expect(1, false, "a", "PEXPIRE", "lock", "0")         // deletes the key at once
	expect(0, true, "a", "EXISTS", "lock")
	expect(1, true, "a", "EVAL", store.ScriptFencedAcquire, "2", "f", "f:fence", "A", "1000")
	expect(nil, true, "a", "EVAL", store.ScriptFencedAcquire, "2", "f", "f:fence", "B", "1000")
	expect(server.Simple("OK"), false, "a", "SCRIPT", "FLUSH")
	expectErr := func(prefix string, args ...string) {
		t.Helper()
		step++
		p.do(t, step, "a", args...)
		if _, err := p.fast.Do(p.now, "a", args...); err == nil || !strings.HasPrefix(err.Error(), prefix) {
			t.Fatalf("%s: err = %v, want %s...", showArgs(args), err, prefix)
		}
	}
	expectErr("NOSCRIPT", "EVALSHA", renew, "1", "lock", "A", "5000")
	// Odd calls fall through to Lua, which answers the same.
	expect(0, false, "a", "EVAL", store.ScriptRelease, "1", "lock", "A", "extra")
	expect(nil, false, "a", "EVAL", store.ScriptFencedAcquire, "2", "x", "x", "A", "1000")
	expect(int64(1), false, "a", "HSET", "h", "holder", "A")
	expectErr("ERR", "EVAL", store.ScriptRelease, "1", "h", "A") // WRONGTYPE inside the script
	expectErr("WRONGTYPE", "GET", "h")
	expectErr("ERR", "SET", "lock", "A", "NX", "PX", "0")
	expectErr("ERR", "SET", "lock", "A", "NX", "PX", "abc")
	expectErr("ERR", "PEXPIRE", "lock", "1.5")
	expectErr("ERR", "SETNX", "lock")
	expect(nil, true, "a", "SET", "h", "A", "NX", "PX", "100")
	expect(1, true, "a", "EVAL", store.ScriptReentrantRenew, "1", "h", "A", "100")
	expect(1, true, "a", "EVAL", store.ScriptReentrantAcquire, "1", "h", "A", "100")
	expect(1, true, "a", "EVAL", store.ScriptReentrantRelease, "1", "h", "A") // count 1 -> 0: deleted
	expect(0, true, "a", "EVAL", store.ScriptReentrantRelease, "1", "h", "A")
	expect(0, true, "a", "EXISTS", "h")
	// SET replaces a key of another type; miniredis's direct Set would not,
	// so that is left to the handler.
	expect(int64(1), false, "a", "HSET", "h", "holder", "A")
	expect(server.Simple("OK"), false, "a", "SET", "h", "A")
	expect("A", true, "a", "GET", "h")
	expect(1, true, "a", "EVAL", store.ScriptFairAcquire, "3", "fl", "fl:q", "fl:t", "A", "1000", "1767225600000", "5000")
	expect(0, true, "a", "EVAL", store.ScriptFairAcquire, "3", "fl", "fl:q", "fl:t", "B", "1000", "1767225600000", "5000")
	expect([]any{"B"}, false, "a", "LRANGE", "fl:q", "0", "-1")
	// Inside MULTI the script is queued and runs, in Lua, at EXEC.
	expect(server.Simple("OK"), false, "a", "MULTI")
	expect(server.Simple("QUEUED"), false, "a", "EVAL", store.ScriptRelease, "1", "fl", "A")
	expect(server.Simple("QUEUED"), false, "a", "GET", "fl")
	expect([]any{1, nil}, false, "a", "EXEC")
	// A connection that changed state the fast path cannot see (SELECT)
	// always goes to miniredis.
	expect(server.Simple("OK"), false, "s", "SELECT", "1")
	expect(server.Simple("OK"), false, "s", "SET", "fl", "other-db")
	expect(nil, true, "a", "GET", "fl")
	expect("other-db", false, "s", "GET", "fl")
	// A replica runs scripts in Lua, where the write fails with READONLY.
	for _, n := range p.nodes() {
		n.SetReplica(true)
	}
	expect(0, false, "a", "EVAL", store.ScriptRelease, "1", "fl", "A")
	expect(nil, false, "a", "GET", "fl")
	expectErr("READONLY", "SET", "fl", "A", "NX", "PX", "100")
	expectErr("ERR", "EVAL", store.ScriptFairAcquire, "3", "fl", "fl:q", "fl:t", "B", "1000", "1767225600000", "5000")
}

// TestFastPathDifferential is the differential test: random lock
// traffic on two nodes, fast path on and off, with byte-identical replies,
// identical effects and identical final data. A third node checks that the
// cached next expiry changes nothing either.
func TestFastPathDifferential(t *testing.T) {
	ops := 100_000
	switch {
	case raceEnabled:
		ops = 8_000
	case testing.Short():
		ops = 20_000
	}
	start := time.Now()
	p := newLuaPair(NodeConfig{Name: "redis-1", Persistence: PersistEverysec})
	runDifferential(t, p, rand.New(rand.NewPCG(7, 7)), ops)
	p.same(t, ops)
	if p.fastHits < p.scripts/3 {
		t.Errorf("fast path answered only %d of %d scripts", p.fastHits, p.scripts)
	}
	if p.plainHits < p.plains/2 {
		t.Errorf("fast path answered only %d of %d plain commands", p.plainHits, p.plains)
	}
	t.Logf("%d operations, %d scripts (%d by the fast path), %d plain commands (%d by the fast path) in %v",
		ops, p.scripts, p.fastHits, p.plains, p.plainHits, time.Since(start).Round(time.Millisecond))
}

// The random traffic's vocabulary: few keys and tokens so that scripts
// often find their own lock, and odd values that make commands or scripts
// fail.
var (
	diffKeys   = []string{"lock", "lock", "rlock", "flock", "lock:fence", "flock:queue", "flock:timeouts", "other", ""}
	diffTokens = []string{"A", "A", "B", "C", ""}
	diffTTLs   = []string{"50", "100", "250", "1000", "30000", "1", "0", "-5", "abc", "1.5", "9223372036854775807"}
	diffNums   = []string{"1767225600000", "0", "-1", "5000", "1.5", "0x10", " 7 ", "abc", "1e3", "99999999999999999999"}
)

func pick(r *rand.Rand, s []string) string { return s[r.IntN(len(s))] }

// diffTTL is usually a sane TTL, sometimes an odd one.
func diffTTL(r *rand.Rand) string {
	if r.IntN(10) == 0 {
		return pick(r, diffTTLs)
	}
	return pick(r, diffTTLs[:5])
}

func runDifferential(t *testing.T, p *luaPair, r *rand.Rand, ops int) {
	conns := []string{"a", "b", "c"}
	for step := range ops {
		conn := pick(r, conns)
		k := pick(r, diffKeys)
		tok := pick(r, diffTokens)
		var args []string
		switch op := r.IntN(100); {
		case op < 22:
			args = []string{"SET", k, tok, "NX", "PX", diffTTL(r)}
			if r.IntN(5) == 0 {
				args = plainVariant(r, k, tok)
			}
		case op < 32:
			args = []string{"GET", k}
		case op < 38:
			args = []string{"DEL", k}
			if r.IntN(5) == 0 {
				args = []string{pick(r, []string{"DEL", "EXISTS", "del"}), k, pick(r, diffKeys), k}
			}
		case op < 43:
			args = []string{"PEXPIRE", k, diffTTL(r)}
			if r.IntN(10) == 0 {
				args = append(args, pick(r, []string{"NX", "XX", "GT", "LT"}))
			}
		case op < 44:
			args = []string{"HSET", pick(r, []string{"lock", "rlock"}), "holder", tok} // the reentrant lock's shape, or a wrong type
		case op < 45:
			args = []string{"HSET", k, "count", pick(r, []string{"1", "0", "x"})}
		case op < 46:
			args = []string{"SET", "lock:fence", pick(r, []string{"41", "x", "9223372036854775807", "9007199254740993"})}
		case op < 47:
			args = []string{"RPUSH", pick(r, []string{"flock:queue", "flock:timeouts"}), tok}
		case op < 48:
			args = []string{"ZADD", pick(r, []string{"flock:timeouts", "flock:queue"}), pick(r, []string{"1767225600000", "inf", "1.5", "1767225999999"}), tok}
		case op < 55:
			args = []string{"PTTL", k}
		case op < 56:
			if r.IntN(10) == 0 {
				args = []string{"SCRIPT", "FLUSH"}
			} else {
				args = []string{"SCRIPT", "LOAD", pick(r, []string{store.ScriptRelease, store.ScriptRenew, store.ScriptReentrantAcquire})}
			}
		case op < 57:
			// A script inside a transaction runs at EXEC, in Lua.
			p.do(t, step, conn, "MULTI")
			p.do(t, step, conn, scriptArgs(r, k, tok)...)
			args = []string{"EXEC"}
		case op < 72:
			p.now += time.Duration(r.IntN(300)) * msec
			continue
		case op < 73:
			by := time.Duration(r.IntN(4000)-2000) * msec
			p.ref.st.DropExpiryBound()
			a, b, c := p.fast.JumpClock(p.now, by), p.slow.JumpClock(p.now, by), p.ref.JumpClock(p.now, by)
			if fmt.Sprint(a) != fmt.Sprint(b) || fmt.Sprint(a) != fmt.Sprint(c) {
				t.Fatalf("step %d: JumpClock %v: %v vs %v vs %v", step, by, a, b, c)
			}
			continue
		case op < 74 && r.IntN(20) == 0:
			// A restart empties the script cache: EVALSHA gets NOSCRIPT.
			for _, n := range p.nodes() {
				n.Crash(p.now)
				n.Restart(p.now)
				n.TakeEffects()
			}
			continue
		default:
			args = scriptArgs(r, k, tok)
		}
		if r.IntN(4) == 0 {
			p.now += time.Duration(r.IntN(60)) * msec
		}
		p.do(t, step, conn, args...)
		if step%1000 == 0 {
			p.same(t, step)
		}
	}
}

// plainVariant is a random plain command around the lock's SET NX PX: the
// forms the plain fast path answers, with other cases and argument counts,
// and options it leaves to miniredis.
func plainVariant(r *rand.Rand, k, tok string) []string {
	switch r.IntN(9) {
	case 0:
		return []string{"SETNX", k, tok}
	case 1:
		return []string{"SET", k, tok}
	case 2:
		return []string{"SET", k, tok, "PX", diffTTL(r)}
	case 3:
		return []string{"set", k, tok, "nx", "px", diffTTL(r)}
	case 4:
		return []string{"SET", k, tok, "NX"}
	case 5:
		return []string{"EXISTS", k}
	case 6:
		return []string{"SET", k, tok, "PX", diffTTL(r), "NX"} // other order: miniredis
	case 7:
		return []string{"SET", k, tok, pick(r, []string{"XX", "GET", "KEEPTTL", "EX"}), "10"} // miniredis
	}
	return []string{"SETNX", k} // wrong argument count: miniredis's error
}

// scriptArgs is a random EVAL or EVALSHA of one of the project's scripts,
// usually well formed.
func scriptArgs(r *rand.Rand, k, tok string) []string {
	s := store.Scripts()[r.IntN(len(store.Scripts()))]
	var args []string
	if r.IntN(3) == 0 {
		args = []string{"EVALSHA", s.SHA}
	} else {
		args = []string{"EVAL", s.Src}
	}
	// Each family has its own lock key, as in a scenario; sometimes it
	// meets another family's key (a wrong type) or a repeated key.
	var keys []string
	switch {
	case s.Keys == 3:
		keys = []string{"flock", "flock:queue", "flock:timeouts"}
	case strings.HasPrefix(s.Name, "reentrant"):
		keys = []string{"rlock"}
	default:
		keys = []string{"lock", "lock:fence"}[:s.Keys]
	}
	if r.IntN(20) == 0 {
		keys[0] = k // maybe a repeated key, maybe a wrong type
	}
	var argv []string
	switch s.Argv {
	case 1:
		argv = []string{tok}
	case 2:
		argv = []string{tok, diffTTL(r)}
	case 3: // redislock's obtain: value (token + metadata), the token's length, ttl
		argv = obtainArgs(r, tok)
	case 4:
		now, place := "1767225600000", "5000"
		if r.IntN(10) == 0 {
			now, place = pick(r, diffNums), pick(r, diffNums)
		}
		argv = []string{tok, diffTTL(r), now, place}
	}
	numkeys := len(keys)
	switch r.IntN(30) {
	case 0:
		numkeys-- // wrong numkeys
	case 1:
		argv = argv[:len(argv)-1] // missing argument
	case 2:
		argv = append(argv, "extra")
	}
	args = append(args, fmt.Sprint(numkeys))
	args = append(args, keys...)
	return append(args, argv...)
}

// obtainArgs is redislock's obtain ARGV: usually the token with or
// without metadata and its length, sometimes a length that is too short,
// too long, zero, negative or not a number.
func obtainArgs(r *rand.Rand, tok string) []string {
	value := tok + pick(r, []string{"", "", ":m1", ":m2"})
	n := fmt.Sprint(len(tok))
	if r.IntN(5) == 0 {
		n = pick(r, []string{"0", "1", "2", "3", "100", "-1", "1.5", "abc", " 1", "01"})
	}
	return []string{value, n, diffTTL(r)}
}

// TestEvalErrorStillCachesScript: Redis caches a script once it compiles,
// even if running it fails (found by the conformance test; miniredis alone
// caches only after a successful run).
func TestEvalErrorStillCachesScript(t *testing.T) {
	for _, interpreted := range []bool{false, true} {
		n := NewNode(NodeConfig{Name: "redis-1", LuaInterpreted: interpreted})
		nodeDo(t, n, 0, "HSET", "lock", "holder", "A")
		if _, err := n.Do(0, "c", "EVAL", store.ScriptRelease, "1", "lock", "A"); err == nil {
			t.Fatal("release on a hash: no error")
		}
		_, err := n.Do(0, "c", "EVALSHA", scriptSHA(store.ScriptRelease), "1", "lock", "A")
		if err == nil || strings.HasPrefix(err.Error(), "NOSCRIPT") {
			t.Errorf("interpreted=%v: EVALSHA after a failed EVAL: %v, want the script's error", interpreted, err)
		}
		// Bad numkeys is refused before compiling: nothing cached.
		n.Do(0, "c", "EVAL", "return 7", "-1")
		sum := sha1.Sum([]byte("return 7"))
		if r := nodeDo(t, n, 0, "SCRIPT", "EXISTS", hex.EncodeToString(sum[:])); fmt.Sprint(r) != "[0]" {
			t.Errorf("SCRIPT EXISTS = %v", r)
		}
	}
}

// BenchmarkEval is one script through Node.Do, with the Lua fast path and
// interpreted: a release by a non-owner (reads only) and a renewal by the
// owner (a write, so effects are computed and logged).
func BenchmarkEval(b *testing.B) {
	for _, mode := range []struct {
		name        string
		interpreted bool
	}{{"fast", false}, {"interpreted", true}} {
		for _, sc := range []struct {
			name string
			args []string
		}{
			{"release-miss", []string{"EVAL", store.ScriptRelease, "1", "lock:x", "B"}},
			{"renew-hit", []string{"EVAL", store.ScriptRenew, "1", "lock:x", "A", "30000"}},
		} {
			b.Run(sc.name+"/"+mode.name, func(b *testing.B) {
				n := NewNode(NodeConfig{Name: "redis-1", LuaInterpreted: mode.interpreted})
				nodeDo(b, n, 0, "SET", "lock:x", "A")
				b.ReportAllocs()
				now := time.Duration(0)
				for b.Loop() {
					now += msec
					if _, err := n.Do(now, "c", sc.args...); err != nil {
						b.Fatal(err)
					}
					n.TakeEffects()
				}
			})
		}
	}
}

// scriptSHA is the SHA1 by which EVALSHA names script src.
func scriptSHA(src string) string {
	sum := sha1.Sum([]byte(src))
	return hex.EncodeToString(sum[:])
}
