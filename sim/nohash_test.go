package sim

import (
	"fmt"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// countingArg counts how often fmt asks it for its text.
type countingArg struct{ calls *int }

func (c countingArg) String() string { *c.calls++; return "s" }

// After StopHashing a line no sink wants is counted and published by kind,
// but never formatted; a line a sink wants still is, and the hash no longer
// moves.
func TestStopHashingFormatsOnlyWantedLines(t *testing.T) {
	k := NewKernel(1)
	var seen []string
	k.Trace().SubscribeMsgIf(func(e Event) { seen = append(seen, fmt.Sprintf("%d:%s=%s", e.Seq, e.Kind, e.Msg)) },
		func(kind string) bool { return kind == "want" })
	if !k.WantsText("cmd") || !k.Trace().Hashing() {
		t.Fatal("a hashed trace wants every line's text")
	}
	if k.WantsArgs("cmd") || !k.WantsArgs("want") {
		t.Fatal("WantsArgs is whether a sink reads the line")
	}
	k.Trace().StopHashing()
	if k.WantsText("cmd") || !k.WantsText("want") || k.Trace().Hashing() {
		t.Fatalf("after StopHashing: WantsText(cmd) %t, WantsText(want) %t", k.WantsText("cmd"), k.WantsText("want"))
	}
	calls := 0
	arg := countingArg{&calls}
	k.Emit("A", "cmd", "%v", arg)
	k.EmitIDf("A", "cmd", "id", []Arg{S("x", "y")}, "%v", arg)
	k.EmitMsg("A", "cmd", "text")
	k.EmitBytes("A", "cmd", []byte("bytes"))
	k.EmitID("A", "cmd", "id", nil, []byte("bytes"))
	k.EmitUnread("A", "cmd")
	k.Emit("A", "want", "%v", arg)
	k.EmitMsg("A", "want", "text")
	if calls != 1 {
		t.Errorf("formatted %d times, want once (the wanted line)", calls)
	}
	if k.Trace().Len() != 8 {
		t.Errorf("Len %d, want 8", k.Trace().Len())
	}
	want := "[1:cmd= 2:cmd= 3:cmd= 4:cmd= 5:cmd= 6:cmd= 7:want=s 8:want=text]"
	if fmt.Sprint(seen) != want {
		t.Errorf("sink saw %v, want %s", seen, want)
	}
	if k.Trace().Hash() != xxhash.New().Sum64() {
		t.Error("an unhashed trace's hash moved")
	}
}

// Unread answers as WantsText does and records what it answers true for:
// hashed, it records nothing (the caller writes the line); unhashed with
// no sink, it only counts; a sink subscribed after StopHashing sees the
// lines it records (the quiet flag must not outlive the sink's arrival),
// and gets the text of those it wants.
func TestUnreadIsWantsTextThenEmitUnread(t *testing.T) {
	k := NewKernel(1)
	if k.Unread("A", "cmd") || k.Trace().Len() != 0 {
		t.Fatal("a hashed trace reads every line: Unread must be false and record nothing")
	}
	k.Trace().StopHashing()
	for i := 1; i <= 2; i++ {
		if !k.Unread("A", "cmd") || k.Trace().Len() != i {
			t.Fatalf("a trace nobody reads: Unread must be true and count each line (Len %d after %d)", k.Trace().Len(), i)
		}
	}
	var seen []string
	k.Trace().SubscribeMsgIf(func(e Event) { seen = append(seen, fmt.Sprintf("%d:%s", e.Seq, e.Kind)) },
		func(kind string) bool { return kind == "want" })
	if !k.Unread("A", "cmd") || k.Unread("A", "want") {
		t.Fatal("with a sink: Unread is true for a line it does not want, false for one it does")
	}
	if k.Trace().Len() != 3 || fmt.Sprint(seen) != "[3:cmd]" {
		t.Errorf("Len %d, the sink saw %v; want 3 and [3:cmd]", k.Trace().Len(), seen)
	}
}
