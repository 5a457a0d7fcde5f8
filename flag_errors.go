package main

import (
	"errors"
	"flag"
	"regexp"
	"sync"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// flagValueError is what lockstep's own flag types return from Set: the
// complaint kept unrendered, so that a bad flag can be said in the
// reader's language (the flag package keeps only the error's English).
type flagValueError struct{ m i18n.Msg }

func (e *flagValueError) Error() string { return e.m.String() }

// badValue makes the error of a flag type's Set.
func badValue(format string, args ...any) error {
	return &flagValueError{i18n.M(format, args...)}
}

// recorder stands in for a flag's value while the flag set parses, and
// keeps the error its Set returned, which the flag package flattens into
// its own sentence. parseFlags puts the real values back before anything
// else (help text, the command) sees the flags.
type recorder struct {
	flag.Value
	err error
}

func (r *recorder) Set(s string) error {
	r.err = r.Value.Set(s)
	return r.err
}

// IsBoolFlag keeps -json meaning -json=true while recorded.
func (r *recorder) IsBoolFlag() bool {
	b, ok := r.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// recordValues wraps every flag of fs in a recorder and returns a function
// that puts the values back.
func recordValues(fs *flag.FlagSet) (map[string]*recorder, func()) {
	recs := map[string]*recorder{}
	fs.VisitAll(func(f *flag.Flag) {
		r := &recorder{Value: f.Value}
		recs[f.Name], f.Value = r, r
	})
	return recs, func() {
		fs.VisitAll(func(f *flag.Flag) {
			if r, ok := f.Value.(*recorder); ok {
				f.Value = r.Value
			}
		})
	}
}

// flagShapes are the flag package's own sentences (flag.FlagSet.failf)
// that a person meets. Each is matched whole and said again through the
// catalogue; anything else stays as the flag package wrote it. Compiled
// on the first bad flag, not at every start.
var flagShapes = sync.OnceValue(func() []flagShape {
	return []flagShape{
		{regexp.MustCompile(`^flag provided but not defined: -(.+)$`), "flag provided but not defined: -%s"},
		{regexp.MustCompile(`^flag needs an argument: -(.+)$`), "flag needs an argument: -%s"},
		{regexp.MustCompile(`^bad flag syntax: (.+)$`), "bad flag syntax: %s"},
		{regexp.MustCompile(`^invalid boolean value (".*") for -(\S+): .*$`), "invalid boolean value %s for -%s: give true or false"},
	}
})

type flagShape struct {
	re     *regexp.Regexp
	format string
}

// invalidValue is the flag package's sentence for a value that Set refused.
var invalidValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid value (".*") for flag -(\S+): .*$`)
})

// flagErrorIn says a flag package error in language l. English is the
// flag package's own text, unchanged.
func flagErrorIn(recs map[string]*recorder, err error, l i18n.Lang) string {
	s := err.Error()
	if l == i18n.EN {
		return s
	}
	if m := invalidValue().FindStringSubmatch(s); m != nil {
		var fe *flagValueError
		if r := recs[m[2]]; r != nil && errors.As(r.err, &fe) {
			return i18n.M("invalid value %s for flag -%s: %v", m[1], m[2], fe.m).In(l)
		}
	}
	for _, sh := range flagShapes() {
		if m := sh.re.FindStringSubmatch(s); m != nil {
			args := make([]any, len(m)-1)
			for i, a := range m[1:] {
				args[i] = a
			}
			return i18n.M(sh.format, args...).In(l)
		}
	}
	return s
}
