package recipe_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// The single-instance strategies are a strategy × variant table: which
// command takes the lock and which gives it back, for every cell, as one
// hold's trace shows them. A naive strategy ignores every variant (it
// stores a placeholder); set-del takes the variant's script but releases
// with the blind DEL; only lua-release runs the variant end to end.
func TestSingleRecipeTable(t *testing.T) {
	variants := []struct {
		name string
		set  func(*model.LockConfig)
	}{
		{"plain", func(*model.LockConfig) {}},
		{"reentrant", func(l *model.LockConfig) { l.Reentrant = true }},
		{"fair", func(l *model.LockConfig) { l.Fair = true }},
		{"fenced", func(l *model.LockConfig) { l.Fencing = "token" }},
	}
	acquires := [4]string{"SET " + key + " A-1 NX PX", "EVAL <reentrant-acquire>", "EVAL <fair-acquire>", "EVAL <fenced-acquire>"}
	want := map[string][2][4]string{
		model.StrategySetnxDel:    {{"SETNX", "SETNX", "SETNX", "SETNX"}, {"DEL", "DEL", "DEL", "DEL"}},
		model.StrategySetnxExpire: {{"SETNX", "SETNX", "SETNX", "SETNX"}, {"DEL", "DEL", "DEL", "DEL"}},
		model.StrategySetDel:      {acquires, {"DEL", "DEL", "DEL", "DEL"}},
		model.StrategyLuaRelease:  {acquires, {"EVAL <release>", "EVAL <reentrant-release>", "EVAL <release>", "EVAL <release>"}},
	}
	for _, st := range model.Strategies {
		if st == model.StrategyRedlock {
			continue
		}
		cells, ok := want[st]
		if !ok {
			t.Fatalf("strategy %s has no row in this test", st)
		}
		for vi, v := range variants {
			cfg := model.Config{Seed: 1, Duration: time.Minute, Latency: time.Millisecond,
				Nodes:   model.NodesConfig{Masters: 1},
				Lock:    model.LockConfig{Key: key, Strategy: st, TTL: 10 * time.Second, Timeout: time.Second},
				Clients: []model.ClientConfig{{Name: "A", Holds: 1, Work: time.Millisecond}}}
			v.set(&cfg.Lock)
			w := newWorld(t, cfg)
			var cmds []string
			w.K.Trace().Subscribe(func(e sim.Event) {
				if e.Kind == "cmd" {
					cmds = append(cmds, e.Msg)
				}
			})
			runUntil(w, time.Second)
			if len(cmds) < 2 {
				t.Fatalf("%s × %s: commands %q", st, v.name, cmds)
			}
			first, last := cmds[0], cmds[len(cmds)-1]
			if !strings.HasPrefix(first, "A: "+cells[0][vi]) {
				t.Errorf("%s × %s: acquires with %q, want %s", st, v.name, first, cells[0][vi])
			}
			if !strings.HasPrefix(last, "A: "+cells[1][vi]) {
				t.Errorf("%s × %s: releases with %q, want %s", st, v.name, last, cells[1][vi])
			}
		}
	}
}
