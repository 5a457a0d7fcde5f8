package recipe

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model/keyhold"
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// A circle of two is the deadlock-pair line, its English exactly the
// circle's sentence and its zh from the names and keys; a longer circle
// is the deadlock line of the English sentence (shown in English in zh).
func TestDeadlockLine(t *testing.T) {
	pair := keyhold.Circle{TTL: 1500 * time.Millisecond, Links: []keyhold.Link{
		{Client: "B", Holds: []string{"k2", "k3"}, WaitsFor: "k1"}, {Client: "A", Holds: []string{"k1"}, WaitsFor: "k2"}}}
	three := keyhold.Circle{TTL: time.Second, Links: append(pair.Links, keyhold.Link{Client: "C", Holds: []string{"k4"}, WaitsFor: "k1"})}
	for _, c := range []struct {
		circle keyhold.Circle
		id, zh string
	}{
		{pair, "deadlock-pair", "B 和 A 在互相等待：B 持有 k2, k3，等待 k1；A 持有 k1，等待 k2。在某个 key 的 TTL（1.5s）"},
		{three, "deadlock", "死锁：B, A, C wait in a circle: "},
	} {
		id, cycle, args := deadlockLine(c.circle)
		args = append([]sim.Arg{sim.S("cycle", cycle)}, args...) // as Thread.Deadlock tells it
		if en, _ := tracemsg.Render(id, args); id != c.id || cycle != c.circle.String() || en != cycle {
			t.Errorf("id %s, en %q\n  want %s, %q", id, en, c.id, c.circle.String())
		}
		if zh, ok := tracemsg.RenderIn("zh", id, args); !ok || !strings.HasPrefix(zh, c.zh) {
			t.Errorf("zh %q, %v; want it to begin %q", zh, ok, c.zh)
		}
	}
}
