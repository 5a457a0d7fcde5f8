package main

import (
	"regexp"
	"strings"
	"testing"
)

// A bad flag is one line in the reader's language: the flag package's own
// sentences and lockstep's complaints about a value are said in zh, with
// the flag and the value as typed; English stays the flag package's text.
func TestFlagErrorsInChinese(t *testing.T) {
	cases := []struct {
		args   []string
		zh, en string
	}{
		{[]string{"run", "--seed", "x"}, `值 "x" 对参数 -seed 无效：必须是 0 到 18446744073709551615 的整数`,
			`invalid value "x" for flag -seed: must be a whole number from 0 to 18446744073709551615`},
		{[]string{"explore", "-s", "gc-pause-wrong-delete", "--runs", "0"}, `值 "0" 对参数 -runs 无效：必须是 1 到 1000000000 的整数`,
			`invalid value "0" for flag -runs: must be a whole number from 1 to 1000000000`},
		{[]string{"run", "-s", "a,,b"}, `值 "a,,b" 对参数 -s 无效：列表里有一个空名字`,
			`invalid value "a,,b" for flag -s: an empty name in the list`},
		{[]string{"run", "--nosuch"}, `没有这个参数：-nosuch`, `flag provided but not defined: -nosuch`},
		{[]string{"compare", "-s"}, `参数缺少取值：-s`, `flag needs an argument: -s`},
		{[]string{"run", "--json=maybe"}, `值 "maybe" 对 -json 无效：只能是 true 或 false`,
			`invalid boolean value "maybe" for -json: parse error`},
	}
	english := regexp.MustCompile(`[A-Za-z]{2,} [A-Za-z]{2,}`)
	for _, c := range cases {
		cmd := c.args[0]
		code, _, errs := runLang(t, append([]string{"--lang", "zh"}, c.args...)...)
		want := "lockstep " + cmd + ": " + c.zh + "（见 'lockstep help " + cmd + "'）\n"
		if code != exitBadInput || errs != want {
			t.Errorf("zh %v: exit %d\n got %q\nwant %q", c.args, code, errs, want)
		}
		msg := strings.NewReplacer("lockstep "+cmd+": ", "", "lockstep help "+cmd, "").Replace(errs)
		if m := english.FindString(msg); m != "" {
			t.Errorf("zh %v: English left in %q: %q", c.args, errs, m)
		}
		code, _, errs = runLang(t, append([]string{"--lang", "en"}, c.args...)...)
		want = "lockstep " + cmd + ": " + c.en + " (see 'lockstep help " + cmd + "')\n"
		if code != exitBadInput || errs != want {
			t.Errorf("en %v: exit %d\n got %q\nwant %q", c.args, code, errs, want)
		}
	}
}

// The recorder that catches a value's complaint is gone once parsing is
// done: help texts and commands see the flag's own value.
func TestFlagValuesRestoredAfterParse(t *testing.T) {
	code, out, _ := runLang(t, "run", "--help")
	if code != exitOK || !strings.Contains(out, "(default 10000000)") {
		t.Fatalf("help after parsing: exit %d, defaults lost:\n%s", code, out)
	}
}
