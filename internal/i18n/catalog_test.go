package i18n

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
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
	if got := ZH.Sprintf("%d steps", 12345); got != "12345 步" {
		t.Errorf("zh plural = %q", got)
	}
	if got := EN.Sprintf("%d steps", 12345); got != "12345 steps" {
		t.Errorf("en = %q", got)
	}
	if m := Missing(); len(m) != 0 {
		t.Errorf("Missing after known keys = %q", m)
	}
}

var verb = regexp.MustCompile(`%[-+# 0]*[0-9]*(\.[0-9]+)?[a-zA-Z%]`)

// latinOnly are keys whose zh text may equal the en text: Redis
// commands, strategy names, units and symbols, which stay in Latin script.
var latinOnly = map[string]bool{}

// TestCatalogueComplete: every key has a zh text that is not blank, takes
// the same fmt verbs in the same order, differs from the English (unless
// allowlisted) and is unique as a key.
func TestCatalogueComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range entries() {
		if seen[e.Key] {
			t.Errorf("key %q twice", e.Key)
		}
		seen[e.Key] = true
		if strings.TrimSpace(e.ZH) == "" {
			t.Errorf("key %q: no zh text", e.Key)
			continue
		}
		if e.ZH == e.Key && !latinOnly[e.Key] {
			t.Errorf("key %q: zh text is the English", e.Key)
		}
		if a, b := strings.Join(verb.FindAllString(e.Key, -1), " "), strings.Join(verb.FindAllString(e.ZH, -1), " "); a != b {
			t.Errorf("key %q: verbs %q, zh %q has %q", e.Key, a, e.ZH, b)
		}
		if !latinOnly[e.Key] && !hasHan(e.ZH) {
			t.Errorf("key %q: zh %q has no Chinese", e.Key, e.ZH)
		}
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
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
			if regexp.MustCompile(`\b`+g.en).MatchString(low) && !strings.Contains(e.ZH, g.zh) {
				t.Errorf("key %q uses %q but zh %q lacks %q", e.Key, g.en, e.ZH, g.zh)
			}
		}
	}
}
