package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/scenario"
)

// TestLoadErrorsInChinese: under --lang zh a bad scenario file is still one
// line, "lockstep run: FILE:LINE:COL: message", and exit 2, with the
// message in Chinese (every phrase of it from the catalogue); under
// --lang en the line is the loader's English, byte for byte. The zh lines
// of every file in testdata/bad are pinned in testdata/load-errors-zh.golden
// (LOCKSTEP_UPDATE_GOLDEN=1 rewrites it); their English is pinned by the
// files' own "# error:" headers (scenario's TestBadFiles).
func TestLoadErrorsInChinese(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "bad", "*.yaml"))
	if err != nil || len(files) < 15 {
		t.Fatalf("found %d bad files (%v)", len(files), err)
	}
	where := regexp.MustCompile(`^lockstep run: [^ ]+:\d+:\d+: `)
	i18n.Missing()
	var zh strings.Builder
	for _, path := range files {
		_, lerr := scenario.LoadFile(path)
		if lerr == nil {
			t.Fatalf("%s loads", path)
		}
		code, out, en := runLang(t, "--lang", "en", "run", "-f", path)
		if code != exitBadInput || out != "" || en != "lockstep run: "+lerr.Error()+"\n" {
			t.Errorf("%s: en: exit %d, stdout %q, stderr %q; want the loader's %q", path, code, out, en, lerr)
		}
		code, out, msg := runLang(t, "--lang", "zh", "run", "-f", path)
		prefix := where.FindString(en)
		switch {
		case code != exitBadInput || out != "":
			t.Errorf("%s: zh: exit %d, stdout %q", path, code, out)
		case prefix == "" || !strings.HasPrefix(msg, prefix) || strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, "\n"):
			t.Errorf("%s: zh: %q is not one line at the place of %q", path, msg, en)
		case !strings.ContainsFunc(msg[len(prefix):], func(r rune) bool { return unicode.Is(unicode.Han, r) }):
			t.Errorf("%s: zh: %q has no Chinese", path, msg)
		}
		zh.WriteString(msg)
	}
	if m := i18n.Missing(); len(m) != 0 {
		t.Errorf("phrases without a zh entry: %q", m)
	}
	golden := filepath.Join("testdata", "load-errors-zh.golden")
	if os.Getenv("LOCKSTEP_UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(zh.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (create it with LOCKSTEP_UPDATE_GOLDEN=1 go test -run TestLoadErrorsInChinese .)", err)
	}
	if zh.String() != string(want) {
		t.Errorf("the zh load errors differ from %s:\n%s", golden, zh.String())
	}
}

// TestExpectFlagErrorInChinese: check's --expect is parsed by the loader,
// so its errors follow the language too; a scenario name the file lacks
// (-s NAME) as well.
func TestExpectFlagErrorInChinese(t *testing.T) {
	cases := []struct {
		args   []string
		en, zh string
	}{
		{[]string{"check", "--expect", "safe: maybe", os.DevNull},
			"lockstep check: --expect:1:7: safe must be true or false (unquoted), not \"maybe\"\n",
			"lockstep check: --expect:1:7: safe 必须是 true 或 false（不加引号），而不是 \"maybe\"\n"},
	}
	for _, c := range cases {
		if code, _, errs := runLang(t, append([]string{"--lang", "en"}, c.args...)...); code != exitBadInput || errs != c.en {
			t.Errorf("en %q: exit %d, %q", c.args, code, errs)
		}
		if code, _, errs := runLang(t, append([]string{"--lang", "zh"}, c.args...)...); code != exitBadInput || errs != c.zh {
			t.Errorf("zh %q: exit %d, %q", c.args, code, errs)
		}
	}
	code, _, errs := runLang(t, "--lang", "zh", "run", "-s", "no-such-scenario")
	if code != exitBadInput || !strings.HasPrefix(errs, "lockstep run: \"no-such-scenario\" 不是 scenarios.yaml 中的场景（已知：") {
		t.Errorf("zh -s: exit %d, %q", code, errs)
	}
}
