package recipe

import (
	"errors"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// A WAIT that fell short is told with a phrase (got_note) whose English is
// exactly the got argument it always had, for each way it falls short, and
// whose zh has no English but Redis's own error text.
func TestWaitGotNoteSaysGot(t *testing.T) {
	for _, c := range []struct {
		acked int
		err   error
		zh    string
	}{
		{0, nil, "只得到 0 个确认"},
		{1, model.ErrTimeout, "没有收到回复"},
		{0, model.RedisError("NOREPLICAS Not enough good replicas to write."), "收到错误 NOREPLICAS Not enough good replicas to write."},
		{0, errors.New("not awaited"), "收到错误 not awaited"},
	} {
		args := append([]sim.Arg{sim.S("client", "A"), sim.S("node", "redis-1"), sim.I("replicas", 2)}, waitGotNote(c.acked, c.err)...)
		en, _ := tracemsg.Render("wait-failed", args)
		want := "A's grant on redis-1: WAIT 2 got " + waitGot(c.acked, c.err) + ": too few replicas hold it; A releases it and the attempt fails"
		if en != want {
			t.Errorf("en %q\nwant %q", en, want)
		}
		if zh, ok := tracemsg.RenderIn("zh", "wait-failed", args); !ok || !strings.Contains(zh, "WAIT 2 "+c.zh+"，") {
			t.Errorf("zh %q, %v; want it to say %q", zh, ok, c.zh)
		}
	}
}
