package text

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// A zh story breaks its lines mid-sentence: reflow joins two CJK
// characters without a space, and anything else with one.
func TestReflowJoinsCJKWithoutSpace(t *testing.T) {
	got := Reflow("持有者以为\n自己持有锁，\nA pauses\nfor 35s：锁\n过期", 200)
	want := "持有者以为自己持有锁，A pauses for 35s：锁过期"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("reflow gave %q, want [%q]", got, want)
	}
}

// TestWrapBreaksCJKBetweenCharacters: Chinese has no spaces, so a long run
// of it must still fill each line (it was one "word" moved whole to the
// next line, leaving half-empty lines), never start a line with closing
// punctuation, and leave Latin words, hyphenated ones too, whole.
func TestWrapBreaksCJKBetweenCharacters(t *testing.T) {
	story := "B 在 1s、C 在 2s 启动。每次 SETNX 都返回 0。它们退避 1s、2s、4s、8s，第五次尝试后放弃，大约在 16s 和 17s。key 还在，属于一个已死的进程，会一直留在那里，直到运维手工删除。"
	const w = 24
	lines := Wrap(story, w)
	if got := strings.Join(lines, ""); strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(story, " ", "") {
		t.Fatalf("wrap lost or reordered text:\n%q\n%q", got, story)
	}
	for i, l := range lines {
		lw := ansi.StringWidth(l)
		if lw > w {
			t.Errorf("line %d is %d cells, over %d: %q", i, lw, w, l)
		}
		if i+1 < len(lines) && lw < w-4 {
			t.Errorf("line %d is only %d of %d cells though more text follows: %q / %q", i, lw, w, l, lines[i+1])
		}
		if r, _ := utf8.DecodeRuneInString(l); strings.ContainsRune("，。、：；）", r) {
			t.Errorf("line %d starts with closing punctuation: %q", i, l)
		}
	}
	en := Wrap("the lock key of redis-1 and lua-release stays whole", 12)
	for _, l := range en {
		if strings.HasSuffix(l, "-") {
			t.Errorf("English broke at a hyphen: %q", en)
		}
	}
}
