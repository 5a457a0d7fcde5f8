package redis

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model/store"
)

// The Go twin of the FencedLock's reentrant acquire (store/fastpath/fenced_reentrant.go)
// answers what miniredis's Lua answers, byte for byte, on random traffic
// that mixes it with the reentrant release and renewal, plain writes of
// the counter (odd values too) and expiries.
func TestFastPathReentrantFencedDifferential(t *testing.T) {
	p := newLuaPair(NodeConfig{Name: "redis-1"})
	r := rand.New(rand.NewPCG(13, 13))
	keys := []string{"lock", "lock", "lock:fence", "other"}
	tokens := []string{"A", "A", "B", ""}
	fastHits, scripts := 0, 0
	for step := range 1500 {
		k, tok := pick(r, keys), pick(r, tokens)
		var args []string
		switch op := r.IntN(10); {
		case op < 4:
			args = []string{"EVAL", store.ScriptReentrantFencedAcquire, "2", "lock", "lock:fence", tok, diffTTL(r)}
			if r.IntN(8) == 0 {
				args[3], args[4] = k, pick(r, keys) // odd keys: a string as the lock, the lock as the counter
			}
		case op < 6:
			args = []string{"EVAL", store.ScriptReentrantRelease, "1", "lock", tok}
		case op < 7:
			args = []string{"EVAL", store.ScriptReentrantRenew, "1", "lock", tok, diffTTL(r)}
		case op < 8:
			args = []string{"SET", "lock:fence", pick(r, []string{"5", "5", "5", "abc", "9223372036854775807", "-3"})}
		case op < 9:
			args = []string{"SET", k, tok, "NX", "PX", diffTTL(r)}
		default:
			args = []string{"DEL", k}
		}
		p.do(t, step, "a", args...)
		if args[0] == "EVAL" && args[1] == store.ScriptReentrantFencedAcquire {
			scripts++
			if p.fast.st.FastAnswered() {
				fastHits++
			}
		}
		p.now += time.Duration(r.IntN(200)) * time.Millisecond
	}
	p.same(t, 1500)
	if fastHits < scripts/3 {
		t.Errorf("the fast path answered %d of %d reentrant-fenced acquires", fastHits, scripts)
	}
}

// The same for bsm/redislock's obtain (store/fastpath/regrant.go): SET NX, or a
// re-grant to the key's own token.
func TestFastPathRegrantDifferential(t *testing.T) {
	p := newLuaPair(NodeConfig{Name: "redis-1"})
	r := rand.New(rand.NewPCG(17, 17))
	tokens := []string{"A", "A", "B", ""}
	fastHits, scripts := 0, 0
	for step := range 1500 {
		tok := pick(r, tokens)
		var args []string
		switch op := r.IntN(10); {
		case op < 5:
			args = []string{"EVAL", store.ScriptRegrantAcquire, "1", "lock", tok, diffTTL(r)}
			if r.IntN(10) == 0 {
				args[3] = "h" // a hash: WRONGTYPE inside the script
			}
		case op < 7:
			args = []string{"EVAL", store.ScriptRelease, "1", "lock", tok}
		case op < 8:
			args = []string{"HSET", "h", "holder", tok}
		case op < 9:
			args = []string{"SET", "lock", tok, "NX", "PX", diffTTL(r)}
		default:
			args = []string{"DEL", "lock"}
		}
		p.do(t, step, "a", args...)
		if args[1] == store.ScriptRegrantAcquire {
			scripts++
			if p.fast.st.FastAnswered() {
				fastHits++
			}
		}
		p.now += time.Duration(r.IntN(200)) * time.Millisecond
	}
	p.same(t, 1500)
	if fastHits < scripts/2 {
		t.Errorf("the fast path answered %d of %d regrant acquires", fastHits, scripts)
	}
}
