package scenario_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/build"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// designs are every combination of the lock modifiers, as YAML and as the
// modifier fields they set.
func designs() (yaml []string, fields [][]string) {
	for _, wd := range []bool{false, true} {
		for _, re := range []bool{false, true} {
			for _, fair := range []bool{false, true} {
				for _, fen := range scenario.FencingModes {
					y := fmt.Sprintf("reentrant: %v, fair: %v, fencing: %s", re, fair, fen)
					var f []string
					if wd {
						y += ", watchdog: {every: 1s}"
						f = append(f, "lock.watchdog")
					}
					if re {
						f = append(f, "lock.reentrant")
					}
					if fair {
						f = append(f, "lock.fair")
					}
					if fen == "cas" {
						f = append(f, "fencing: cas")
					}
					yaml, fields = append(yaml, y), append(fields, f)
				}
			}
		}
	}
	return yaml, fields
}

func loadDesign(strategy, design string) (*scenario.Scenario, error) {
	f, err := scenario.Load("d.yaml", []byte(scenario.Head+"    lock: {key: k, strategy: "+strategy+", ttl: 5s, "+design+"}\n"+scenario.ClientsOK))
	if err != nil {
		return nil, err
	}
	return f.Scenarios[0], nil
}

// The loader and CheckDesign agree on every strategy × modifier
// combination, and the loader's message is the table's.
func TestLoaderAndCheckDesignAgree(t *testing.T) {
	ys, _ := designs()
	legal := 0
	for _, st := range scenario.Strategies {
		for _, y := range ys {
			s, err := loadDesign(st, y)
			l := scenario.Lock{Key: "k", Strategy: st}
			if s != nil {
				l = s.Lock
			} else {
				// Parse the design leniently to ask the table about it.
				l.Reentrant = strings.Contains(y, "reentrant: true")
				l.Fair = strings.Contains(y, "fair: true")
				l.Fencing = strings.TrimSuffix(strings.SplitN(strings.SplitN(y, "fencing: ", 2)[1], ",", 2)[0], "}")
				if strings.Contains(y, "watchdog") {
					l.Watchdog = &scenario.Watchdog{Every: 1e9}
				}
			}
			dErr := scenario.CheckDesign(st, l)
			switch {
			case (err == nil) != (dErr == nil):
				t.Errorf("%s {%s}: loader says %v, CheckDesign says %v", st, y, err, dErr)
			case err != nil && !strings.Contains(err.Error(), dErr.Error()) && !anyMsg(err, scenario.DesignProblems(st, l)):
				t.Errorf("%s {%s}: loader says %v, not the table's %v", st, y, err, dErr)
			case err == nil:
				legal++
			}
		}
	}
	// 5 strategies × 24 designs: the naive three run 2 of them (fencing
	// none or token, nothing else), lua-release all but the 8 conflicting
	// ones (reentrant with fencing: token is Redisson's FencedLock),
	// redlock 6 (watchdog and fencing, neither reentrant nor fair).
	if want := 3*2 + 16 + 6; legal != want {
		t.Errorf("%d legal combinations, want %d", legal, want)
	}
}

func anyMsg(err error, ps []*scenario.DesignError) bool {
	for _, p := range ps {
		if strings.Contains(err.Error(), p.Msg) {
			return true
		}
	}
	return false
}

// For every design a file may hold and every strategy a comparison may run
// it under, the column's design is legal, and it drops exactly the
// modifiers the loader would refuse under that strategy.
func TestCompareDropsWhatTheLoaderRefuses(t *testing.T) {
	ys, fields := designs()
	for i, y := range ys {
		for _, own := range scenario.Strategies {
			s, err := loadDesign(own, y)
			if err != nil {
				continue
			}
			for _, st := range scenario.Strategies {
				run, dropped, err := scenario.ForStrategy(s, st)
				if err != nil {
					t.Fatalf("%s {%s} under %s: %v", own, y, st, err)
				}
				if err := scenario.CheckDesign(st, run.Lock); err != nil || run.Validate() != nil {
					t.Errorf("%s {%s} under %s runs an illegal design: %v %v", own, y, st, err, run.Validate())
				}
				var got []string
				for _, d := range dropped {
					got = append(got, d.Field)
				}
				var want []string
				for _, p := range scenario.DesignProblems(st, s.Lock) {
					want = append(want, strings.SplitN(p.Msg, " needs", 2)[0])
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s {%s} under %s dropped %v, the loader refuses %v", own, y, st, got, want)
				}
				for _, f := range got {
					if !slices.Contains(fields[i], f) {
						t.Errorf("dropped %s, which the design does not set", f)
					}
				}
				// The world built for the column has the same design.
				cfg := build.ModelConfig(s, scenario.Options{Strategy: st}).Lock
				if cfg.Reentrant != run.Lock.Reentrant || cfg.Fair != run.Lock.Fair || cfg.Fencing != run.Lock.Fencing || (cfg.Watchdog == nil) != (run.Lock.Watchdog == nil) {
					t.Errorf("%s {%s} under %s: the model gets %+v, the column says %+v", own, y, st, cfg, run.Lock)
				}
			}
		}
	}
}

// compare -s reentrant-nested runs Redlock without reentrancy, and says so
// in the table, in the column's notes and in JSON.
func TestCompareStatesWhatItDropped(t *testing.T) {
	s := scenariotest.Scenario(t, "reentrant-nested")
	cmp, err := runner.Compare(s, runner.DefaultCompare, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lua, red := cmp.Columns[0], cmp.Columns[1]
	if len(lua.Dropped) != 0 || len(red.Dropped) != 1 || red.Dropped[0].Field != "lock.reentrant" {
		t.Fatalf("dropped: lua-release %v, redlock %v", lua.Dropped, red.Dropped)
	}
	var text bytes.Buffer
	cmp.WriteText(&text)
	for _, want := range []string{"dropped             -            lock.reentrant",
		"  dropped: lock.reentrant (strategy redlock has no reentrant variant)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	// A comparison that drops nothing has no dropped row.
	cmp, err = runner.Compare(scenariotest.Scenario(t, "failover-single-vs-redlock"), runner.DefaultCompare, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text.Reset()
	cmp.WriteText(&text)
	if strings.Contains(text.String(), "dropped") {
		t.Errorf("nothing dropped, yet:\n%s", text.String())
	}
}

// A design illegal under every strategy is refused by Compare too.
func TestCompareRefusesAConflictingDesign(t *testing.T) {
	s := scenariotest.Scenario(t, "reentrant-nested")
	c := *s
	c.Lock.Fair = true
	_, err := runner.Compare(&c, runner.DefaultCompare, scenario.Options{})
	if err == nil || !strings.Contains(err.Error(), "lock.fair and lock.reentrant cannot be combined") {
		t.Errorf("Compare = %v", err)
	}
}
