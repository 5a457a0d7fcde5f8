// Package i18n decides which language lockstep speaks (English or
// Simplified Chinese) and renders its user-facing chrome through a
// golang.org/x/text message catalogue.
//
// Machine-readable output (--json keys, trace kinds, exit codes, hashes)
// never goes through this package: only sentences meant for a person do.
package i18n

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Lang is a language lockstep speaks.
type Lang string

// The languages lockstep speaks; English is the default and the fallback.
const (
	EN Lang = "en"
	ZH Lang = "zh"
)

// EnvVar names the environment variable that chooses the language when
// --lang is not given.
const EnvVar = "LOCKSTEP_LANG"

// Parse reads a --lang or LOCKSTEP_LANG value: en or zh, case-insensitive.
func Parse(s string) (Lang, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "en":
		return EN, nil
	case "zh":
		return ZH, nil
	}
	return "", fmt.Errorf("unknown language %q (use en or zh)", s)
}

// Resolve picks the language: the --lang value flag when not empty, else
// LOCKSTEP_LANG, else the locale (the first set of LC_ALL, LC_MESSAGES,
// LANG, as POSIX orders them; one starting with zh means zh), else en.
// getenv is os.Getenv in the program and a table in tests. An unknown
// --lang or LOCKSTEP_LANG is an error naming its source; a locale that is
// not zh is simply English.
func Resolve(flag string, getenv func(string) string) (Lang, error) {
	if flag != "" {
		l, err := Parse(flag)
		if err != nil {
			return "", fmt.Errorf("--lang: %w", err)
		}
		return l, nil
	}
	if v := getenv(EnvVar); v != "" {
		l, err := Parse(v)
		if err != nil {
			return "", fmt.Errorf("%s: %w", EnvVar, err)
		}
		return l, nil
	}
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "zh") {
				return ZH, nil
			}
			return EN, nil
		}
	}
	return EN, nil
}

// current is the process's language: set once by main before anything is
// rendered (tests set it around a case with Use).
var current atomic.Value

// Set makes l the language T renders in.
func Set(l Lang) { current.Store(l) }

// Current is the language T renders in (en until Set is called).
func Current() Lang {
	if l, ok := current.Load().(Lang); ok {
		return l
	}
	return EN
}
