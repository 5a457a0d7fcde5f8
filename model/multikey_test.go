package model

import "testing"

// crossSlot looks at EVAL's keys only, and at all of them.
func TestCrossSlot(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"EVAL", "s", "2", "lock:order:1", "lock:order:2", "tok"}, true},
		{[]string{"EVAL", "s", "2", "lock:{order}:1", "lock:{order}:2", "tok"}, false},
		{[]string{"EVAL", "s", "1", "lock:order:1", "lock:order:2"}, false}, // the second is an argument
		{[]string{"EVAL", "s", "2", "k", "k:fence", "tok", "100"}, true},    // fencing: token on a cluster
		{[]string{"EVAL", "s", "9", "a", "b"}, false},                       // numkeys beyond the arguments: Redis's own error
		{[]string{"SET", "lock:order:1", "lock:order:2"}, false},
		{[]string{"EVAL"}, false},
	} {
		if got := crossSlot(c.args); got != c.want {
			t.Errorf("crossSlot(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
