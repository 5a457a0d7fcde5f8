package i18n

import (
	"fmt"
	"testing"
)

// TestMsg: a Msg renders in English exactly as fmt.Sprintf would, in zh
// through the catalogue with its nested Msgs in zh too; a format the
// catalogue lacks falls back to English and is reported, the "%s" wrapper
// needs no entry.
func TestMsg(t *testing.T) {
	Missing()
	m := M("%s (%d to %d)", M("Flags:"), 1, 2)
	if got, want := m.String(), fmt.Sprintf("%s (%d to %d)", "Flags:", 1, 2); got != want {
		t.Errorf("en %q, want %q", got, want)
	}
	if got := m.In(ZH); got != "参数：（1 到 2）" {
		t.Errorf("zh %q", got)
	}
	if got := M("%s", M("Flags:")).In(ZH); got != "参数：" {
		t.Errorf("zh wrapper %q", got)
	}
	if miss := Missing(); len(miss) != 0 {
		t.Errorf("Missing = %q", miss)
	}
	if got := M("no entry %d%%", 5).In(ZH); got != "no entry 5%" {
		t.Errorf("fallback %q", got)
	}
	if miss := Missing(); len(miss) != 1 || miss[0] != "no entry %d%%" {
		t.Errorf("Missing = %q", miss)
	}
}
