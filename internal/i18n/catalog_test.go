package i18n

import (
	"regexp"
	"strings"
	"testing"
)

// TestLookupThroughCatalogue: a translated key renders in zh, in en as
// itself, with fmt's formatting (no digit grouping), and an unknown key
// falls back to English and is reported missing.
func TestLookupThroughCatalogue(t *testing.T) {
	e := entries()
	if len(e) == 0 {
		t.Skip("empty catalogue")
	}
	Missing()
	if got := ZH.Sprintf("no such key %d", 12345); got != "no such key 12345" {
		t.Errorf("fallback = %q", got)
	}
	if m := Missing(); len(m) != 1 || m[0] != "no such key %d" {
		t.Errorf("Missing = %q", m)
	}
	if got := EN.Sprintf(e[0].Key); got != e[0].Key && !strings.Contains(e[0].Key, "%") {
		t.Errorf("en %q renders %q", e[0].Key, got)
	}
	const k = "end of the run (%d steps, %d events)"
	if got := ZH.Sprintf(k, 12345, 2); got != "运行结尾（12345 步，2 个事件）" {
		t.Errorf("zh = %q", got)
	}
	if got := EN.Sprintf(k, 12345, 2); got != "end of the run (12345 steps, 2 events)" {
		t.Errorf("en = %q (no digit grouping)", got)
	}
	if m := Missing(); len(m) != 0 {
		t.Errorf("Missing after known keys = %q", m)
	}
}

// TestCatalogueComplete: every key has a zh text that is not blank, takes
// the same fmt verbs in the same order, differs from the English (unless
// allowlisted) and is unique as a key.
func TestCatalogueComplete(t *testing.T) {
	for _, p := range Check(entries()) {
		t.Error(p)
	}
}

// glossary: where an English key uses a term, its zh text uses the
// tutorials' word for it (docs/glossary.md).
var glossary = []struct{ en, zh string }{
	{"lock", "锁"}, {"holder", "持有者"}, {"watchdog", "看门狗"}, {"renew", "续期"},
	{"failover", "主从切换"}, {"split brain", "脑裂"}, {"clock jump", "时钟跳变"},
	{"fencing token", "围栏令牌"}, {"quorum", "多数派"}, {"validity", "有效时间"},
}

func TestCatalogueUsesGlossary(t *testing.T) {
	for _, e := range entries() {
		low := strings.ToLower(e.Key)
		for _, g := range glossary {
			if regexp.MustCompile(`\b`+g.en+`(s|es|ed|ing|al)?\b`).MatchString(low) && !strings.Contains(e.ZH, g.zh) {
				t.Errorf("key %q uses %q but zh %q lacks %q", e.Key, g.en, e.ZH, g.zh)
			}
		}
	}
}

// TestPlural: the English singular comes from CLDR's plural rules through
// the catalogue; Chinese has one form.
func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 scenarios", 1: "1 scenario", 2: "2 scenarios", 1000: "1000 scenarios"} {
		if got := EN.Sprintf("%d scenarios", n); got != want {
			t.Errorf("en %d: %q, want %q", n, got, want)
		}
	}
	if got := ZH.Sprintf("%d scenarios", 1); got != "1 个场景" {
		t.Errorf("zh 1: %q", got)
	}
}

// TestContext: one English text in two contexts has two translations.
func TestContext(t *testing.T) {
	t.Cleanup(func() { Set(EN) })
	Set(ZH)
	if a, b := T("up"), TC("node", "up"); a != "上移" || b != "在线" {
		t.Errorf("zh up = %q, node up = %q", a, b)
	}
	Set(EN)
	if a, b := T("up"), TC("node", "up"); a != "up" || b != "up" {
		t.Errorf("en up = %q, node up = %q", a, b)
	}
}

// TestEnglishPluralMatchesLibrary: the English singular chosen without
// the library (englishOne) is the one x/text's plural rules choose, for
// every plural entry and counts of each integer type lookup decides
// itself; a count of another type still goes to the library.
func TestEnglishPluralMatchesLibrary(t *testing.T) {
	counts := []any{0, 1, -1, 2, -2, 11, 21, 101, 1000, int64(1), int64(-1), int64(7), uint64(1), uint64(0), 1.0, 1.5, "1"}
	n := 0
	for _, e := range entries() {
		if e.One == "" {
			continue
		}
		n++
		for _, c := range counts {
			args := []any{c, 0, 0}
			r := &recorder{args: args}
			if err := enCat().Context(tags[EN], r).Execute(e.id()); err != nil {
				t.Fatal(err)
			}
			if got, _ := lookup(EN, e.id(), args); got != r.out {
				t.Errorf("%q with %T %v: %q, the library chose %q", e.Key, c, c, got, r.out)
			}
		}
	}
	if n == 0 {
		t.Fatal("no plural entry in the catalogue")
	}
}
