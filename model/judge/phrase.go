package judge

import (
	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// Phrase is a piece of an explanation as a message id of the trace's
// catalogue (model/tracemsg) and its arguments, some of which are phrases
// themselves (Subs: the catalogue's {key:msg} pieces), so that one explanation
// renders in every language of the catalogue and in English exactly as
// the trace has it (issue 16). The zero Phrase is "".
type Phrase struct {
	ID   string
	Args []sim.Arg
	Subs []Sub
}

// Sub is an argument of a Phrase that is a phrase itself.
type Sub struct {
	Key    string
	Phrase Phrase
}

// In is the phrase in language lang ("en" or "zh"), rendered from Flat;
// a language with no template for it gives English.
func (p Phrase) In(lang string) string {
	if p.ID == "" {
		return ""
	}
	args := p.Flat()
	s, ok := tracemsg.RenderIn(lang, p.ID, args)
	if !ok {
		s, _ = tracemsg.Render(p.ID, args)
	}
	return s
}

// Flat is the phrase as the arguments of one message of the catalogue:
// its own, then each Sub as a msg piece (key: the sub's id) whose own
// arguments follow under "key." (the catalogue looks a piece's arguments
// up under its path first), and so on down. A trace line carries it, so a
// reader renders the whole explanation in its language from the line.
func (p Phrase) Flat() []sim.Arg { return p.appendFlat(nil, "") }

func (p Phrase) appendFlat(dst []sim.Arg, prefix string) []sim.Arg {
	for _, a := range p.Args {
		a.Key = prefix + a.Key
		dst = append(dst, a)
	}
	for _, s := range p.Subs {
		dst = append(dst, sim.S(prefix+s.Key, s.Phrase.ID))
		if s.Phrase.ID != "" {
			dst = s.Phrase.appendFlat(dst, prefix+s.Key+".")
		}
	}
	return dst
}

// String is the phrase in English.
func (p Phrase) String() string { return p.In("en") }

// withPiece appends p to args as a piece (the catalogue's msg format):
// key names p's id, p's arguments follow. p has no Subs (a state).
func withPiece(args []sim.Arg, key string, p Phrase) []sim.Arg {
	return append(append(args, sim.S(key, p.ID)), p.Args...)
}

// phrase is Phrase id with string and integer arguments.
func phrase(id string, args ...sim.Arg) Phrase { return Phrase{ID: id, Args: args} }

// text is a piece of explanation the judge recorded as English text (how a
// grant ended: grants.go and copies.go keep it as a string): the same in
// every language until those carry ids too.
func text(s string) Phrase {
	if s == "" {
		return Phrase{}
	}
	return phrase("why-text", sim.S("text", s))
}

// join is a and b as "a; b" (in the language's punctuation); either alone
// when the other is empty.
func join(a, b Phrase) Phrase { return joinWith("why-join", a, b) }

// joinWith is a and b joined by message id (its placeholders {a} and {b});
// either alone when the other is empty.
func joinWith(id string, a, b Phrase) Phrase {
	switch {
	case a.ID == "":
		return b
	case b.ID == "":
		return a
	}
	return Phrase{ID: id, Subs: []Sub{{"a", a}, {"b", b}}}
}

// FirstViolationIn explains the first violation in language lang ("en":
// FirstViolation); "" when none.
func (j *Judge) FirstViolationIn(lang string) string { return j.firstP.In(lang) }

// StuckReasonIn says in language lang why the run is stuck ("en":
// StuckReason); "" when it is not.
func (j *Judge) StuckReasonIn(lang string) string { return j.stuckP.In(lang) }

// FirstViolationPhrase and StuckReasonPhrase are the explanations
// unrendered (the zero Phrase when there is none), for a caller that
// renders them later, and only in the language it is asked for.
func (j *Judge) FirstViolationPhrase() Phrase { return j.firstP }

// StuckReasonPhrase: see FirstViolationPhrase.
func (j *Judge) StuckReasonPhrase() Phrase { return j.stuckP }

// stuckState is why a holder of the lock at the run's end will never
// release it; none when it still might.
func stuckState(c *client) Phrase {
	switch {
	case c.crashed:
		return phrase("state-crashed")
	case c.hung:
		return phrase("state-hung", sim.I("since_ns", int64(c.hungSince)))
	case !c.inCS:
		return phrase("state-finished")
	}
	return Phrase{}
}
