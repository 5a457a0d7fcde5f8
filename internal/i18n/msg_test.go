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

// TestTighten: a space of the zh format between Chinese text and a nested
// Chinese phrase goes; one beside a Latin word, or beside a plain
// argument (a value the user wrote), stays.
func TestTighten(t *testing.T) {
	nested := Msg{Format: "x"}
	for _, c := range []struct {
		f        string
		raw      []any
		args     []any
		want     string
		rendered string
	}{
		{"%s 不是 %s 中的字段", []any{`"v"`, nested}, []any{`"v"`, "顶层"}, "%s 不是%s中的字段", `"v" 不是顶层中的字段`},
		{"%s 不是 %s 中的字段", []any{`"v"`, nested}, []any{`"v"`, "lock"}, "%s 不是 %s 中的字段", `"v" 不是 lock 中的字段`},
		{"%s 不是 %s 中的字段", []any{`"v"`, "顶层"}, []any{`"v"`, "顶层"}, "%s 不是 %s 中的字段", `"v" 不是 顶层 中的字段`},
		{"缺少 %s", []any{nested}, []any{"duration（模拟时间）"}, "缺少 %s", "缺少 duration（模拟时间）"},
		{"100%% 的 %s 是", []any{nested}, []any{"锁"}, "100%% 的%s是", "100% 的锁是"},
	} {
		got := tighten(c.f, c.raw, c.args)
		if got != c.want {
			t.Errorf("tighten(%q, %q) = %q, want %q", c.f, c.args, got, c.want)
		}
		if r := fmt.Sprintf(got, c.args...); r != c.rendered {
			t.Errorf("%q renders %q, want %q", got, r, c.rendered)
		}
	}
}
