package scenario

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lockstep-sim/lockstep/internal/termtext"
	"gopkg.in/yaml.v3"
)

// A scenario's title and story in other languages than English: the
// i18n: block beside title: and story:. English stays the default and the
// block is optional, so every file written before it stays valid and
// exports byte-identical.
//
//	title: "A holder's GC pause outlives its lease"
//	story: |
//	  ...
//	i18n:
//	  zh:
//	    title: "持有者 GC 停顿超过租期"
//	    story: |
//	      ...

// LangEnglish and LangChinese are the languages a scenario's text may be
// given in: English in title:/story:, Simplified Chinese in i18n.zh.
const (
	LangEnglish = "en"
	LangChinese = "zh"
)

// Languages are the language codes TitleIn and StoryIn accept, English
// first; i18n: may hold each of them but English.
var Languages = []string{LangEnglish, LangChinese}

// Text is a title and a story in one language; an empty one is not given
// (the English one is used instead).
type Text struct {
	Title string
	Story string
}

// I18n holds a scenario's translations, one field per language of
// Languages (a struct, not a map, so exports list them in a fixed order).
type I18n struct {
	Zh *Text // Simplified Chinese; nil: not given
}

// keyI18n is the scenario's block of translations.
const keyI18n = "i18n"

// TitleIn is the scenario's title in lang (a code of Languages), falling
// back to the English title when lang is unknown or not translated.
func (s *Scenario) TitleIn(lang string) string {
	if t := s.text(lang); t != nil && t.Title != "" {
		return t.Title
	}
	return s.Title
}

// StoryIn is the scenario's story in lang, falling back to English.
func (s *Scenario) StoryIn(lang string) string {
	if t := s.text(lang); t != nil && t.Story != "" {
		return t.Story
	}
	return s.Story
}

// text is the translation into lang, or nil.
func (s *Scenario) text(lang string) *Text {
	if s.I18n == nil || lang != LangChinese {
		return nil
	}
	return s.I18n.Zh
}

// liveTitle is t for an exported live run (export.go): each translated
// title says, as the English one does, how many faults were injected; the
// stories stay the scenario's. A copy: s's own block is not changed.
func (t *I18n) liveTitle(injected int) *I18n {
	if t == nil || t.Zh == nil || t.Zh.Title == "" {
		return t
	}
	zh := *t.Zh
	zh.Title = fmt.Sprintf("%s（实时注入了 %d 个故障）", zh.Title, injected)
	return &I18n{Zh: &zh}
}

var i18nField = field[Scenario]{name: keyI18n, doc: "the title and story in other languages: zh: {title, story}; absent: English only",
	read: func(p *parser, e entry, s *Scenario, path string, pt posTable) {
		s.I18n = &I18n{}
		readSection(p, e.V, i18nSection, s.I18n, path, pt)
	},
	write: func(s *Scenario) *yaml.Node { return writeSection(i18nSection, s.I18n) },
	skip:  func(s *Scenario) bool { return s.I18n == nil }}

var i18nSection = newSection(keyI18n, keyI18n+".",
	field[I18n]{name: LangChinese, doc: "Simplified Chinese: {title, story}, each optional but not empty",
		read: func(p *parser, e entry, x *I18n, path string, pt posTable) {
			x.Zh = &Text{}
			readSection(p, e.V, textSection, x.Zh, path, pt)
		},
		write: func(x *I18n) *yaml.Node { return writeSection(textSection, x.Zh) },
		skip:  func(x *I18n) bool { return x.Zh == nil }},
)

var textSection = newSection("i18n."+LangChinese, "i18n."+LangChinese+".",
	field[Text]{name: keyTitle, doc: "the title in the language: one line, at most MaxTitleLen characters",
		val: func(t *Text) any { return &t.Title }, skip: func(t *Text) bool { return t.Title == "" }},
	field[Text]{name: keyStory, doc: "the story in the language: at most MaxStoryLen bytes",
		val: func(t *Text) any { return &t.Story }, skip: func(t *Text) bool { return t.Story == "" },
		write: func(t *Text) *yaml.Node {
			n := str(t.Story)
			n.Style = yaml.LiteralStyle
			return n
		}},
)

// translations checks each given translation as text() checks the English
// title and story, and refuses an empty (or blank) one: a key written with no text
// is a mistake (leave it out to fall back to English).
func (c *checker) translations() {
	if c.s.I18n == nil || c.s.I18n.Zh == nil {
		return
	}
	at := dot(keyI18n, LangChinese)
	t := c.s.I18n.Zh
	title, story := dot(at, keyTitle), dot(at, keyStory)
	// A loaded file says which keys were written; a built Scenario (export,
	// Validate without positions) gives only the values, "" meaning absent.
	given := func(path, v string) bool { return v != "" || c.pt != nil && c.pt.has(path) }
	switch {
	case !given(title, t.Title) && !given(story, t.Story):
		c.errorf(at, "%s holds neither %s nor %s; give at least one, or leave %s out", at, keyTitle, keyStory, at)
	case given(title, t.Title) && strings.TrimSpace(t.Title) == "":
		c.errorf(title, "%s is empty; write the title or leave the key out (the English one is used)", title)
	case termtext.HasControl(t.Title):
		c.errorf(title, "%s holds a control character, a line break or invalid UTF-8 (%s); a title is one line of plain text", title, echo(firstControl(t.Title, false)))
	case utf8.RuneCountInString(t.Title) > MaxTitleLen:
		c.errorf(title, "%s must be at most %d characters long (got %d); put the rest in %s", title, MaxTitleLen, utf8.RuneCountInString(t.Title), story)
	}
	switch {
	case given(story, t.Story) && strings.TrimSpace(t.Story) == "":
		c.errorf(story, "%s is empty; write the story or leave the key out (the English one is used)", story)
	case termtext.EscapeKeepLines(t.Story) != t.Story:
		c.errorf(story, "%s holds a control character or invalid UTF-8 (%s); a story may hold line breaks and tabs but no other control character", story, echo(firstControl(t.Story, true)))
	case len(t.Story) > MaxStoryLen:
		c.errorf(story, "%s must be at most %d bytes long (got %d)", story, MaxStoryLen, len(t.Story))
	}
}
