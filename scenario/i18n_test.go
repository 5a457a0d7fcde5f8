package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
)

// i18nBlock is a zh translation after base (lines 7-11).
const i18nBlock = "    i18n:\n      zh:\n        title: \"持有者的锁\"\n        story: |\n          锁过期了。\n"

// A zh block is read, TitleIn/StoryIn return it for zh and English for
// every other language, and export writes it back unchanged.
func TestI18nLoadFallbackExport(t *testing.T) {
	y := strings.Replace(base, "  - name: s\n", "  - name: s\n    title: The lock\n    story: |\n      It expired.\n", 1) + i18nBlock
	f, err := Load("i.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Scenarios[0]
	for _, c := range []struct{ lang, title, story string }{
		{LangChinese, "持有者的锁", "锁过期了。\n"},
		{LangEnglish, "The lock", "It expired.\n"},
		{"fr", "The lock", "It expired.\n"},
		{"", "The lock", "It expired.\n"},
	} {
		if got := s.TitleIn(c.lang); got != c.title {
			t.Errorf("TitleIn(%q) = %q, want %q", c.lang, got, c.title)
		}
		if got := s.StoryIn(c.lang); got != c.story {
			t.Errorf("StoryIn(%q) = %q, want %q", c.lang, got, c.story)
		}
	}
	data, err := Export(s, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "i18n:\n      zh:\n        title: 持有者的锁\n        story: |\n          锁过期了。\n") {
		t.Fatalf("export lost the translation:\n%s", data)
	}
	back, err := Load("x.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if b := back.Scenarios[0]; b.TitleIn(LangChinese) != "持有者的锁" || b.StoryIn(LangChinese) != "锁过期了。\n" {
		t.Fatalf("after export: %+v", b.I18n.Zh)
	}
}

// A missing translation falls back to English per field; a scenario without
// the block exports without it (old files stay byte-identical).
func TestI18nPartialAndAbsent(t *testing.T) {
	y := strings.Replace(base, "  - name: s\n", "  - name: s\n    title: The lock\n    story: |\n      It expired.\n", 1)
	f, err := Load("i.yaml", []byte(y+"    i18n: {zh: {title: 锁}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s := f.Scenarios[0]; s.TitleIn(LangChinese) != "锁" || s.StoryIn(LangChinese) != "It expired.\n" {
		t.Fatalf("partial: %q %q", s.TitleIn(LangChinese), s.StoryIn(LangChinese))
	}
	// Export validates the scenario without positions: the absent zh
	// story is absent, not empty.
	if data, err := Export(f.Scenarios[0], Options{}, nil); err != nil || !strings.Contains(string(data), "i18n:\n      zh:\n        title: 锁\n    seed: 1\n") {
		t.Fatalf("export of a title-only translation: %v\n%s", err, data)
	}
	f, err = Load("i.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	if f.Scenarios[0].I18n != nil || f.Scenarios[0].TitleIn(LangChinese) != "The lock" {
		t.Fatalf("absent: %+v", f.Scenarios[0].I18n)
	}
	data, err := Export(f.Scenarios[0], Options{}, nil)
	if err != nil || strings.Contains(string(data), keyI18n) {
		t.Fatalf("export of a file without i18n: %v\n%s", err, data)
	}
}

// Bad translations are refused with one FILE:LINE:COL line at the key.
func TestI18nRefused(t *testing.T) {
	for _, c := range []struct{ block, want string }{
		{"    i18n: {fr: {title: x}}\n", "i.yaml:7:12: unknown language \"fr\" in i18n (languages: zh)"},
		{"    i18n:\n      en: {title: x}\n", "i.yaml:8:7: unknown language \"en\" in i18n"},
		{"    i18n: {zh: {story: \"\"}}\n", "i.yaml:7:24: i18n.zh.story is empty; write the story or leave the key out"},
		{"    i18n: {zh: {title: \"\"}}\n", "i.yaml:7:24: i18n.zh.title is empty"},
		{"    i18n: {zh: {story: \"  \\n\"}}\n", "i.yaml:7:24: i18n.zh.story is empty"},
		{"    i18n: {zh: {}}\n", "i.yaml:7:12: i18n.zh holds neither title nor story"},
		{"    i18n: {zh: {title: \"锁\\e[2J\"}}\n", "i.yaml:7:24: i18n.zh.title holds a control character, a line break or invalid UTF-8 (\"\\x1b\")"},
		{"    i18n: {zh: {story: \"锁\\e]0;x\\a\"}}\n", "i.yaml:7:24: i18n.zh.story holds a control character or invalid UTF-8 (\"\\x1b\")"},
		{"    i18n: {zh: {title: \"a\\nb\"}}\n", "i.yaml:7:24: i18n.zh.title holds a control character, a line break"},
		{"    i18n: {zh: {title: " + strings.Repeat("锁", MaxTitleLen+1) + "}}\n", "i.yaml:7:24: i18n.zh.title must be at most 200 characters long (got 201)"},
		{"    i18n: {zh: {story: " + strings.Repeat("锁", MaxStoryLen/3+1) + "}}\n", "i.yaml:7:24: i18n.zh.story must be at most 16384 bytes long (got 16386)"},
		{"    i18n: {zh: {name: x}}\n", "i.yaml:7:17: unknown field \"name\" in i18n.zh (known: title, story)"},
		{"    i18n: zh\n", "i.yaml:7:11: i18n must be a mapping"},
	} {
		_, err := Load("i.yaml", []byte(base+c.block))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60q: got %.200v, want %s", c.block, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: the error is not one line: %q", c.block, err)
		}
	}
}

// An exported live run's zh title counts the injected faults as the
// English one does; the scenario's own translation is left as it was.
func TestI18nLiveExportTitle(t *testing.T) {
	f, err := LoadFile("../scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := f.Scenarios[0]
	zhTitle := s.TitleIn(LangChinese)
	data, err := Export(s, Options{ExtraFaults: []faults.Fault{{At: time.Second, Kind: faults.Pause, Target: "A", For: time.Second}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load("live.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if got, want := back.Scenarios[0].TitleIn(LangChinese), zhTitle+"（实时注入了 1 个故障）"; got != want {
		t.Errorf("live zh title %q, want %q", got, want)
	}
	if s.TitleIn(LangChinese) != zhTitle || back.Scenarios[0].StoryIn(LangChinese) != s.StoryIn(LangChinese) {
		t.Errorf("the live export changed the scenario's translation or lost its story")
	}
}
