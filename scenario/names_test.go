package scenario

import (
	"regexp"
	"testing"
)

// TestNameAlphabetsMatchRegexps: the names' byte tests accept exactly the
// strings the regexps they replaced accept, over every string of up to
// four pieces that mix the alphabets, their neighbours, the node names'
// prefixes, non-ASCII and white space.
func TestNameAlphabetsMatchRegexps(t *testing.T) {
	checks := []struct {
		re   string
		test func(string) bool
	}{
		{`^[a-z0-9-]+$`, func(s string) bool { return spelled(s, scenarioNameByte) }},
		{`^[A-Za-z0-9_-]+$`, func(s string) bool { return spelled(s, clientNameByte) }},
		{`^[A-Za-z0-9_:.-]+$`, func(s string) bool { return spelled(s, resourceNameByte) }},
		{`^(redis-[0-9]+(-r[0-9]+)?|sentinel-[0-9]+)$`, looksLikeNodeName},
	}
	pieces := []string{"", "redis-", "sentinel-", "-r", "r", "-", "0", "9", "a", "z", "A", "Z", "_", ":", ".", "/", "`", "@", "[", "{", "é", " ", "\n"}
	var all []string
	var grow func(s string, n int)
	grow = func(s string, n int) {
		all = append(all, s)
		if n == 0 {
			return
		}
		for _, p := range pieces[1:] {
			grow(s+p, n-1)
		}
	}
	grow("", 4)
	for _, c := range checks {
		re := regexp.MustCompile(c.re)
		for _, s := range all {
			if got, want := c.test(s), re.MatchString(s); got != want {
				t.Fatalf("%s on %q: %v, the regexp says %v", c.re, s, got, want)
			}
		}
	}
}
