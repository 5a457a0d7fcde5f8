package faults

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// The lines whose reasons are pieces of the catalogue and that no bundled
// scenario has (a failover with no replica to promote, or none up; a
// replica's writes lost when it follows the new master; a clock jump on a
// down node; an evict with no key to evict) say what they
// always said, render from their arguments exactly, and render in zh.
func TestReasonPiecesNoScenarioHas(t *testing.T) {
	for _, c := range []struct {
		name     string
		replicas int
		faults   []Fault
		writeAt  time.Duration
		id, msg  string
		zh       string
	}{
		{"no replica", 0, []Fault{{At: s, Kind: Failover, Target: "redis-1"}}, 0,
			"failover-refused", "failover skipped: redis-1 has no replica to promote", "没有可提升的从库"},
		{"none up", 1, []Fault{{At: 500 * ms, Kind: Crash, Target: "redis-1-r1"}, {At: s, Kind: Failover, Target: "redis-1"}}, 0,
			"failover-refused", "failover skipped: no replica of redis-1 is up to be promoted", "没有在线的从库"},
		{"jump while down", 0, []Fault{{At: 100 * ms, Kind: Crash, Target: "redis-1"}, {At: 200 * ms, Kind: ClockJump, Target: "redis-1", By: 20 * s}}, 0,
			"clock-jump-down", "redis-1 clock +20s: redis-1 is down; its clock keeps running and the jump counts when it restarts", "时钟跳变 +20s"},
		{"evict with no key", 0, []Fault{{At: s, Kind: Evict, Target: "redis-1"}}, 0,
			"evict-refused", "evict redis-1 skipped: redis-1 holds no key lock:x", "上没有 key lock:x"},
		{"follows", 2, []Fault{{At: 200 * ms, Kind: Failover, Target: "redis-1"}}, 150 * ms,
			"repl-lost", "replication redis-1 -> redis-1-r2: redis-1-r2 now follows redis-1-r1; 1 write(s) made on redis-1 but never applied on redis-1-r2 are lost: k = \"v\"", "改为跟随"},
	} {
		w, ev := world(t, func(cfg *model.Config) {
			cfg.Nodes.Replicas = c.replicas
			cfg.Nodes.ReplicationLag = 100 * ms
		})
		if c.writeAt > 0 {
			cmd(t, w, c.writeAt, "redis-1", "SET", "k", "v")
		}
		Schedule(w, c.faults)
		w.K.RunUntil(2 * time.Second)
		var line *sim.Event
		for i, e := range *ev {
			if tm, _ := tracemsg.Template("en", e.ID); tm == "" {
				continue
			}
			if got, _ := tracemsg.Render(e.ID, e.Args); got != e.Msg {
				t.Errorf("%s: %s renders %q, the msg is %q", c.name, e.ID, got, e.Msg)
			}
			if e.ID == c.id && e.Msg == c.msg {
				line = &(*ev)[i]
			}
		}
		if line == nil {
			dumpTrace(t, *ev)
			t.Fatalf("%s: no %s line %q", c.name, c.id, c.msg)
		}
		if zh, _ := tracemsg.RenderIn("zh", line.ID, line.Args); !strings.Contains(zh, c.zh) || strings.Contains(zh, "{") {
			t.Errorf("%s: zh %q", c.name, zh)
		}
	}
}
