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
