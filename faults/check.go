package faults

import (
	"time"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// Checker is what a kind's Check reports its findings to; the scenario
// validator implements it. Fields are named relative to the kind: "for",
// "groups[1][0]", or "" for the kind itself. Messages take field and kind
// names as arguments, so each is spelled once, in its Field or Spec.
type Checker interface {
	// Names are the processes of the scenario's world.
	Names() Names
	// FromFile reports whether the scenario was loaded (positions known)
	// rather than built in code.
	FromFile() bool
	// Written reports whether the field was written in the file.
	Written(sub string) bool
	// Required reports a missing field (what names it) and returns whether
	// it is given.
	// what is a field name or a phrase (an i18n.Msg, shown in the
	// reader's language).
	Required(sub string, what any) bool
	Errorf(sub, format string, args ...any)
	// Positive and NonNegative check a duration's range, naming it
	// KIND.FIELD.
	Positive(sub string, d time.Duration)
	NonNegative(sub string, d time.Duration)
	// Target checks f.Target against allowed (described by need when it is
	// not every process) and returns whether it is acceptable.
	Target(f Fault, allowed []string, need string) bool
	// Quote and List print user-supplied text and lists of names in a
	// message, as every other message of the loader does.
	Quote(s string) string
	List(names []string) i18n.Msg
	// Dur prints a duration as the loader's messages do ("95s", "24h").
	Dur(d time.Duration) string
}

// Validate checks f, whose kind must be in the table: its target against the
// kind's Targets, then the kind's own Check.
func Validate(c Checker, f Fault) {
	s := Lookup(f.Kind)
	ok := true
	// The resource is a process on the network only, like a sentinel.
	netOnly := s.OnSentinel != nil && c.Names().NetTarget(f.Target)
	if s.OnSentinel == nil && s.Targets != nil && c.Names().NetTarget(f.Target) {
		c.Errorf(FieldTarget.Name, "%s cannot strike %s: the resource takes only the network faults (%s, %s, %s)",
			f.Kind, c.Quote(f.Target), Partition, Isolate, Slow)
		ok = false
	} else if s.Targets != nil && !netOnly {
		ok = c.Target(f, s.Targets(c.Names()), s.Need)
	}
	if s.Check != nil {
		s.Check(c, f, ok)
	}
}

// requireFor is the check of a kind that lasts: for is given and positive.
func requireFor(c Checker, f Fault) {
	if c.Required(FieldFor.Name, i18n.M("%s.%s (how long it lasts)", f.Kind, FieldFor.Name)) {
		c.Positive(FieldFor.Name, f.For)
	}
}
