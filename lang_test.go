package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

func runLang(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	t.Cleanup(func() { i18n.Set(i18n.EN) })
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestLangFlag: --lang works before or after the command, in both
// spellings, and an unknown one is one line and exit 2.
func TestLangFlag(t *testing.T) {
	t.Setenv(i18n.EnvVar, "")
	t.Setenv("LC_ALL", "C")
	for _, args := range [][]string{{"--lang", "zh", "help"}, {"help", "--lang=zh"}, {"-lang", "zh", "help"}} {
		code, out, _ := runLang(t, args...)
		if code != exitOK || !strings.Contains(out, "用法：") {
			t.Errorf("%q: exit %d, %q", args, code, out)
		}
	}
	code, out, _ := runLang(t, "help")
	if code != exitOK || strings.Contains(out, "用法") || !strings.Contains(out, "--lang en|zh") {
		t.Errorf("default help: exit %d, %q", code, out)
	}
	code, _, errs := runLang(t, "list", "--lang", "fr")
	if code != exitBadInput || errs != "lockstep: --lang: unknown language \"fr\" (use en or zh)\n" {
		t.Errorf("--lang fr: exit %d, %q", code, errs)
	}
	code, _, errs = runLang(t, "list", "--lang")
	if code != exitBadInput || !strings.Contains(errs, "--lang needs a value") {
		t.Errorf("--lang with no value: exit %d, %q", code, errs)
	}
}

// TestLangFromEnv: LOCKSTEP_LANG, then the locale, choose when --lang is absent.
func TestLangFromEnv(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "zh_CN.UTF-8")
	t.Setenv(i18n.EnvVar, "")
	if _, out, _ := runLang(t, "run", "--help"); !strings.Contains(out, "用法：lockstep run") || !strings.Contains(out, "参数：") {
		t.Errorf("LANG=zh_CN: %q", out)
	}
	t.Setenv(i18n.EnvVar, "en")
	if _, out, _ := runLang(t, "run", "--help"); !strings.HasPrefix(out, "Usage: lockstep run") {
		t.Errorf("LOCKSTEP_LANG=en over LANG=zh_CN: %q", out)
	}
}

// TestJSONSameInBothLanguages: machine-readable output never changes with
// the language.
func TestJSONSameInBothLanguages(t *testing.T) {
	args := []string{"run", "--json", "-s", "gc-pause-wrong-delete,gc-pause-lua-release,set-px-crash-recovers"}
	_, en, _ := runLang(t, append(args, "--lang", "en")...)
	_, zh, _ := runLang(t, append(args, "--lang", "zh")...)
	if en == "" || en != zh {
		t.Errorf("--json differs between en and zh (or is empty):\nen %.300q\nzh %.300q", en, zh)
	}
}

// TestHelpCatalogue: every entry, the commands' registered help texts
// included, passes the catalogue's checks (both languages, same verbs,
// zh not the English).
func TestHelpCatalogue(t *testing.T) {
	for _, p := range i18n.Check(i18n.Entries()) {
		t.Error(p)
	}
	for _, k := range []string{usage, listSynopsis, runSynopsis, tuiSynopsis, compareSynopsis, checkSynopsis, exploreSynopsis} {
		if !i18n.Has(k) {
			t.Errorf("no zh for %.40q", k)
		}
	}
}

// TestErrorsInZH: the command line's own error sentences follow the
// language; the exit code and the one-line shape do not change.
func TestErrorsInZH(t *testing.T) {
	code, _, errs := runLang(t, "--lang", "zh", "run", "extra")
	if code != exitBadInput || errs != "lockstep run: 多余的参数 \"extra\"（用 -s NAME 选择场景）\n" {
		t.Errorf("zh: exit %d, %q", code, errs)
	}
	code, _, errs = runLang(t, "--lang", "en", "run", "extra")
	if code != exitBadInput || errs != "lockstep run: unexpected argument \"extra\" (scenarios are chosen with -s NAME)\n" {
		t.Errorf("en: exit %d, %q", code, errs)
	}
}
