package scenario_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/scenario"
)

// A modifier dropped for a strategy or a profile keeps its reason
// unrendered: In says it in zh (no English words left but the names), in
// English exactly as String and --json's why; a Dropped whose Why was set
// by hand is said as it is.
func TestDroppedInZH(t *testing.T) {
	l := scenario.Lock{Strategy: "lua-release", Reentrant: true, Key: "k"}
	_, byStrategy, err := scenario.DesignFor("redlock", l)
	if err != nil {
		t.Fatal(err)
	}
	_, byProfile, err := scenario.ProfileLock("redsync", l)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		d  []scenario.Dropped
		zh string
	}{
		{byStrategy, "lock.reentrant（策略 redlock 没有 reentrant 的变体）"},
		{byProfile, "lock.reentrant（客户端库 redsync 不使用它）"},
	} {
		if len(c.d) != 1 {
			t.Fatalf("dropped %v, want lock.reentrant", c.d)
		}
		d := c.d[0]
		if got := d.In(i18n.ZH); got != c.zh {
			t.Errorf("zh %q, want %q", got, c.zh)
		}
		if got := d.In(i18n.EN); got != d.String() || got != d.Field+" ("+d.Why+")" {
			t.Errorf("en %q, String %q", got, d.String())
		}
		j, _ := json.Marshal(d)
		if want := `{"field":"lock.reentrant","why":"` + d.Why + `"}`; string(j) != want {
			t.Errorf("json %s, want %s", j, want)
		}
		d.Why = "set by hand"
		if got := d.In(i18n.ZH); !strings.Contains(got, "set by hand") {
			t.Errorf("a hand-set Why is not said as it is: %q", got)
		}
	}
}
