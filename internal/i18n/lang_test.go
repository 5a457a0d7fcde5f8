package i18n

import (
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// TestResolve covers each rule of the language choice, in order.
func TestResolve(t *testing.T) {
	for _, c := range []struct {
		name, flag string
		env        map[string]string
		want       Lang
	}{
		{"default", "", nil, EN},
		{"flag zh", "zh", map[string]string{EnvVar: "en", "LANG": "en_US.UTF-8"}, ZH},
		{"flag en beats env and locale", "en", map[string]string{EnvVar: "zh", "LC_ALL": "zh_CN.UTF-8"}, EN},
		{"flag case", "ZH", nil, ZH},
		{"env", "", map[string]string{EnvVar: "zh", "LANG": "C"}, ZH},
		{"env beats locale", "", map[string]string{EnvVar: "en", "LANG": "zh_CN.UTF-8"}, EN},
		{"LC_ALL", "", map[string]string{"LC_ALL": "zh_TW.UTF-8", "LANG": "C"}, ZH},
		{"LC_ALL beats LANG", "", map[string]string{"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, EN},
		{"LC_MESSAGES", "", map[string]string{"LC_MESSAGES": "zh_CN", "LANG": "en_US"}, ZH},
		{"LC_MESSAGES beats LANG", "", map[string]string{"LC_MESSAGES": "en_GB", "LANG": "zh_CN"}, EN},
		{"LANG", "", map[string]string{"LANG": "zh_CN.UTF-8"}, ZH},
		{"LANG other", "", map[string]string{"LANG": "de_DE.UTF-8"}, EN},
		{"LANG C", "", map[string]string{"LANG": "C"}, EN},
	} {
		got, err := Resolve(c.flag, env(c.env))
		if err != nil || got != c.want {
			t.Errorf("%s: Resolve = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// TestResolveUnknown: an unknown --lang or LOCKSTEP_LANG is a clear error
// that names where the value came from, never a silent English.
func TestResolveUnknown(t *testing.T) {
	_, err := Resolve("fr", env(nil))
	if err == nil || !strings.Contains(err.Error(), `--lang: unknown language "fr" (use en or zh)`) {
		t.Errorf("--lang fr: %v", err)
	}
	_, err = Resolve("", env(map[string]string{EnvVar: "klingon"}))
	if err == nil || !strings.Contains(err.Error(), EnvVar+`: unknown language "klingon"`) {
		t.Errorf("LOCKSTEP_LANG klingon: %v", err)
	}
}

func TestSetCurrent(t *testing.T) {
	t.Cleanup(func() { Set(EN) })
	if Current() != EN {
		t.Fatalf("default %q", Current())
	}
	Set(ZH)
	if Current() != ZH {
		t.Fatalf("after Set(ZH): %q", Current())
	}
}
