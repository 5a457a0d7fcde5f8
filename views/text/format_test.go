package text

import "testing"

// A zh story breaks its lines mid-sentence: reflow joins two CJK
// characters without a space, and anything else with one.
func TestReflowJoinsCJKWithoutSpace(t *testing.T) {
	got := Reflow("持有者以为\n自己持有锁，\nA pauses\nfor 35s：锁\n过期", 200)
	want := "持有者以为自己持有锁，A pauses for 35s：锁过期"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("reflow gave %q, want [%q]", got, want)
	}
}
