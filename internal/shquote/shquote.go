// Package shquote quotes words for a POSIX shell, so that a command line
// the program prints (a reproduce: line, a replay command) can be pasted
// and run as printed, whatever the paths and names in it hold.
package shquote

import "strings"

// safe are the characters no POSIX shell treats specially in a word.
const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-"

// Quote returns s as one shell word: unchanged when it holds only safe
// characters, otherwise in single quotes (a quote inside becomes '\”).
func Quote(s string) string {
	if s != "" && strings.Trim(s, safe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join quotes each word and joins them with spaces.
func Join(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}
