package tracemsg

import (
	"testing"

	"github.com/lockstep-sim/lockstep/sim"
)

// The msg format renders the ids its argument lists, in the line's
// language, joined by the language's separator; nothing for an empty
// list; the placeholder for an unknown id or a cycle of pieces.
func TestPieceLists(t *testing.T) {
	tally := []sim.Arg{sim.I("granted", 2), sim.I("nodes", 3), sim.I("quorum", 2), sim.I("elapsed_ns", 2e6), sim.I("validity_ns", 7918e6),
		sim.S("tally", "tally-ok tally-taken"), sim.S("ok_nodes", "redis-2 redis-3"), sim.S("taken_nodes", "redis-1")}
	lease := func(fence int64, note, end string) []sim.Arg {
		return []sim.Arg{sim.S("token", "A-1"), sim.I("fence", fence), sim.I("until_ns", 30e9), sim.S("fence_note", note), sim.S("lease_end", end)}
	}
	for _, c := range []struct {
		lang, id string
		args     []sim.Arg
		want     string
	}{
		{"en", "quorum", tally, "2 of 3 nodes (quorum 2) [ok redis-2 redis-3; taken redis-1], elapsed 2ms, validity 7.918s: lock granted"},
		{"zh", "quorum", tally, "3 个节点中 2 个（多数派 2）[成功 redis-2 redis-3；被占用 redis-1]，耗时 2ms，有效时间 7.918s：授予锁"},
		{"en", "acquired", lease(7, "lease-fence", "lease-until"), "acquired A-1 with fencing token 7, believes it holds until 30.000s by its clock"},
		{"en", "acquired", lease(0, "", "lease-no-expiry"), "acquired A-1, no expiry"},
		{"zh", "acquired", lease(7, "lease-fence", "lease-until"), "加锁成功：A-1，围栏令牌 7，以为自己是持有者，按它的时钟直到 30.000s"},
		{"zh", "acquired", lease(0, "", "lease-no-expiry"), "加锁成功：A-1，锁没有过期时间（不设 TTL）"},
		{"en", "done", []sim.Arg{sim.I("holds", 3), sim.S("held", "holds-many")}, "finished its 3 holds"},
		{"en", "done", []sim.Arg{sim.S("held", "no-such-phrase")}, "finished {held:msg}"},
		{"en", "done", []sim.Arg{sim.S("held", "done")}, "finished finished {held:msg}"}, // a cycle stops at once
		{"en", "done", []sim.Arg{sim.S("held", "  holds-one ")}, "finished its hold"},
	} {
		if got, ok := RenderIn(c.lang, c.id, c.args); !ok || got != c.want {
			t.Errorf("RenderIn(%s, %s) = %q, %v\n  want %q", c.lang, c.id, got, ok, c.want)
		}
	}
}

// A line with pieces renders into a reused buffer without allocating.
func TestPieceListDoesNotAllocate(t *testing.T) {
	args := []sim.Arg{sim.S("token", "A-1"), sim.I("fence", 7), sim.I("until_ns", 30e9), sim.S("fence_note", "lease-fence"), sim.S("lease_end", "lease-until")}
	buf := make([]byte, 0, 256)
	for _, l := range Languages {
		if a := testing.AllocsPerRun(100, func() { buf = AppendIn(buf[:0], l, "acquired", args) }); a != 0 {
			t.Errorf("AppendIn(%s, acquired) allocates %.0f times", l, a)
		}
	}
}

// A line recorded before its piece arguments existed (no fence_note,
// lease_end; a tally or why of English text) does not render in zh: the
// reader shows its English msg rather than placeholders.
func TestOldTraceArgsDoNotRenderInZH(t *testing.T) {
	for _, c := range []struct {
		id   string
		args []sim.Arg
	}{
		{"acquired", []sim.Arg{sim.S("client", "A"), sim.S("token", "A-1"), sim.I("fence", 0), sim.I("until_ms", 30000), sim.I("until_ns", 30e9)}},
		{"done", []sim.Arg{sim.S("client", "A"), sim.I("holds", 1)}},
		{"refused", []sim.Arg{sim.I("granted", 0), sim.I("nodes", 3), sim.I("quorum", 2), sim.S("tally", "[taken redis-1 redis-2 redis-3]"),
			sim.I("elapsed_ns", 2e6), sim.I("validity_ns", 7e9), sim.S("why", "no quorum")}},
		{"quorum", []sim.Arg{sim.S("tally", "tally-ok"), sim.I("why", 1), sim.S("ok_nodes", "redis-1")}}, // quorum has no why: fine
		{"refused", []sim.Arg{sim.S("tally", "tally-ok"), sim.I("why", 1), sim.S("ok_nodes", "redis-1")}},
	} {
		s, ok := RenderIn("zh", c.id, c.args)
		if want := c.id == "quorum"; ok != want {
			t.Errorf("RenderIn(zh, %s, %v) = %q, %v; want %v", c.id, c.args, s, ok, want)
		}
	}
}
