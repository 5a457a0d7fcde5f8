package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// chooseLang takes --lang (or -lang, with its value as the next argument
// or after =) out of args wherever it stands, so every command accepts it
// the same way, and sets the language from it, LOCKSTEP_LANG or the
// locale (i18n.Resolve). Arguments after "--" are left alone. It also
// stays in every command's flag set (newFlags), so --help lists it. A
// bad value is exit 2 with one line.
func chooseLang(args []string, getenv func(string) string, stderr io.Writer) ([]string, int, bool) {
	var value string
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		switch {
		case a == "--lang" || a == "-lang":
			if i+1 >= len(args) {
				return nil, langErr(stderr, "--lang needs a value: en or zh"), false
			}
			value = args[i+1]
			i++
			if value == "" {
				return nil, langErr(stderr, "--lang needs a value: en or zh"), false
			}
		case strings.HasPrefix(a, "--lang=") || strings.HasPrefix(a, "-lang="):
			value = a[strings.Index(a, "=")+1:]
			if value == "" {
				return nil, langErr(stderr, "--lang needs a value: en or zh"), false
			}
		default:
			out = append(out, a)
		}
	}
	l, err := i18n.Resolve(value, getenv)
	if err != nil {
		return nil, langErr(stderr, err.Error()), false
	}
	i18n.Set(l)
	return out, 0, true
}

// langErr prints the one line of a bad --lang: it comes before any
// command is chosen, so it is lockstep's, not a command's.
func langErr(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "lockstep: %s\n", msg)
	return exitBadInput
}
