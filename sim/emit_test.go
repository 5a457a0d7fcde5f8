package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"
)

// EmitBytes, EmitMsg and Emit's fmt path hash the same line, and a message
// becomes text only for the events some sink wants it for.
func TestEmitBytesHashAndLazyText(t *testing.T) {
	k := NewKernel(1)
	h := xxhash.New()
	var texts []string
	k.Trace().SubscribeMsgIf(func(e Event) { texts = append(texts, e.Kind+"="+e.Msg) },
		func(kind string) bool { return kind == "want" })
	buf := []byte("A: GET k => (nil)")
	k.RunUntil(7 * time.Millisecond)
	k.EmitBytes("redis-1", "cmd", buf)
	k.EmitBytes("redis-1", "want", buf)
	k.EmitMsg("A", "want", "as a string")
	k.Emit("A", "cmd", "%d holds", 3)
	for _, l := range []string{"redis-1|cmd|A: GET k => (nil)", "redis-1|want|A: GET k => (nil)", "A|want|as a string", "A|cmd|3 holds"} {
		fmt.Fprintf(h, "%d|%s\n", 7*time.Millisecond, l)
	}
	if k.Trace().Hash() != h.Sum64() {
		t.Fatalf("hash %x, want %x", k.Trace().Hash(), h.Sum64())
	}
	want := []string{"cmd=", "want=A: GET k => (nil)", "want=as a string", "cmd="}
	if fmt.Sprint(texts) != fmt.Sprint(want) {
		t.Fatalf("sink saw %q, want %q", texts, want)
	}
	// A sink that always wants text gets it for every kind.
	k.Trace().Subscribe(func(Event) {})
	texts = nil
	k.EmitBytes("redis-1", "cmd", buf)
	if texts[0] != "cmd=A: GET k => (nil)" {
		t.Fatalf("with a text sink: %q", texts[0])
	}
}

type dropCount struct{ fired, dropped int }

func (d *dropCount) Fire() { d.fired++ }
func (d *dropCount) Drop() { d.dropped++ }

// A Dropper hears exactly one of Fire and Drop per message: delivered, lost
// at once (partitioned) or cut in flight.
func TestSendHandlerTellsDropper(t *testing.T) {
	k := NewKernel(1)
	n := k.NewNetwork(time.Millisecond, 0)
	var ok, partitioned, cut dropCount
	n.SendHandler("a", "b", &ok)
	n.SendHandler("a", "c", &cut)
	id := n.Isolate("c")
	n.SendHandler("a", "c", &partitioned)
	k.RunUntil(time.Second)
	n.Heal(id)
	if ok != (dropCount{1, 0}) || partitioned != (dropCount{0, 1}) || cut != (dropCount{0, 1}) {
		t.Fatalf("delivered %+v, partitioned %+v, cut in flight %+v", ok, partitioned, cut)
	}
}
