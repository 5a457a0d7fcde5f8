package yamlfile

// The low-level walk over yaml.v3 nodes: typed reads of scalars, mappings
// with merge keys, lists, and the expansion budget that stops alias bombs.

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// Limits bound a walk; the file format that uses the parser chooses them
// (and documents them with its other limits).
type Limits struct {
	MaxVisits int // YAML nodes walked, counting every alias expansion: what stops an alias bomb
	MaxDepth  int // nested "<<:" merge keys
	// MaxDuration is the format's longest duration as its messages write
	// it ("24h"), for a duration beyond what time.Duration holds.
	MaxDuration string
}

// Parser walks the yaml.Node tree by hand rather than decoding into structs,
// so that every value keeps its line and column for error messages, and so
// that unknown keys, duplicate keys and wrong kinds are caught exactly where
// they are written. A problem stops the walk: Fail panics with an *Error,
// which Catch turns back into the walk's error.
type Parser struct {
	Path string // the file, in messages
	// Unknown, when set, is called with a key that is not among the
	// known keys of a mapping, before Fields fails with "unknown field":
	// a format whose mappings name other things than fields (kinds,
	// languages, metrics) fails there with a message of its own. It is
	// not given the known keys: a slice passed through a func value
	// escapes, and every caller's list of keys would go to the heap.
	Unknown func(p *Parser, k *yaml.Node, what any)
	limits  Limits
	budget  int                 // node visits left; guards against alias blowups
	merging map[*yaml.Node]bool // mappings being merged now; guards against cycles
	depth   int                 // current merge nesting
}

// NewParser is a walker of one document (or block) named path in errors.
func NewParser(path string, l Limits) Parser {
	return Parser{Path: path, limits: l, budget: l.MaxVisits, merging: map[*yaml.Node]bool{}}
}

// Fail stops the walk with an error at n's position.
func (p *Parser) Fail(n *yaml.Node, format string, args ...any) {
	panic(NewError(p.Path, PosOf(n), format, args...))
}

// Catch ends a walk (deferred): a panic with an *Error from Fail becomes
// *err; any other panic is a bug and is left to propagate so tests and the
// fuzzer see it.
func Catch(err *error) {
	if r := recover(); r != nil {
		le, ok := r.(*Error)
		if !ok {
			panic(r)
		}
		*err = le
	}
}

// PosOf is where n is written.
func PosOf(n *yaml.Node) Pos { return Pos{Line: n.Line, Col: n.Column} }

// Resolve follows an alias to its anchored node and charges the visit
// budget, so a small file whose aliases expand to millions of nodes is
// rejected instead of walked.
func (p *Parser) Resolve(n *yaml.Node) *yaml.Node {
	at := n
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	p.budget--
	if p.budget < 0 {
		p.Fail(at, "the document is too large once its aliases are expanded (more than %d nodes)", p.limits.MaxVisits)
	}
	return n
}

// Describe names a node's kind for "X must be ..., not Y" messages.
func Describe(n *yaml.Node) i18n.Msg {
	switch n.Kind {
	case yaml.MappingNode:
		return i18n.M("a mapping")
	case yaml.SequenceNode:
		return i18n.M("a list")
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return i18n.M("nothing (the value is empty)")
		}
		return i18n.M("the value %s", Echo(n.Value))
	}
	return i18n.M("an unsupported YAML node")
}

// Entry is one key: value pair of a mapping, after merge keys are applied.
type Entry struct {
	Key  string
	K, V *yaml.Node // the key's node and the value's
}

// Fields returns the pairs of the mapping n, which must use only the keys in
// known, each at most once. YAML merge keys ("<<: *base") are honoured so a
// file can share blocks between scenarios; as in YAML, keys written in the
// mapping override merged ones, and earlier merged mappings override later.
func (p *Parser) Fields(n *yaml.Node, what any, known []string) []Entry {
	n = p.Resolve(n)
	if n.Kind != yaml.MappingNode {
		p.Fail(n, "%s must be a mapping (key: value lines), not %s", what, Describe(n))
	}
	out := make([]Entry, 0, len(n.Content)/2)
	var merges []*yaml.Node
	seen := newKeySet(len(n.Content) / 2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := p.Resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.Fail(k, "keys in %s must be plain names, not %s", what, Describe(k))
		}
		if k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if !slices.Contains(known, k.Value) {
			if p.Unknown != nil {
				p.Unknown(p, k, what)
			}
			p.Fail(k, "unknown field %s in %s (known: %s)", Echo(k.Value), what, strings.Join(known, ", "))
		}
		if prev := seen.find(out, k.Value); prev != nil {
			p.Fail(k, "duplicate field %s in %s (first at line %d)", Echo(k.Value), what, prev.Line)
		}
		seen.add(k.Value, k)
		out = append(out, Entry{k.Value, k, v})
	}
	for _, m := range merges {
		for _, src := range p.mergeSources(m) {
			for _, e := range p.mergeFields(src, what, known) {
				if seen.find(out, e.Key) == nil {
					seen.add(e.Key, e.K)
					out = append(out, e)
				}
			}
		}
	}
	return out
}

// mergeSources returns the mappings named by a "<<:" value: one mapping or a
// list of them.
func (p *Parser) mergeSources(m *yaml.Node) []*yaml.Node {
	m = p.Resolve(m)
	switch m.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{m}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, it := range m.Content {
			it = p.Resolve(it)
			if it.Kind != yaml.MappingNode {
				p.Fail(it, "a merge key (<<) takes a mapping or a list of mappings, not a list holding %s", Describe(it))
			}
			out = append(out, it)
		}
		return out
	}
	p.Fail(m, "a merge key (<<) takes a mapping or a list of mappings, not %s", Describe(m))
	return nil
}

// mergeFields reads a merged mapping, refusing cycles (an anchor merged into
// itself) and absurd nesting, either of which would recurse without end.
func (p *Parser) mergeFields(src *yaml.Node, what any, known []string) []Entry {
	if p.merging[src] {
		p.Fail(src, "this mapping is merged (<<) into itself")
	}
	if p.depth >= p.limits.MaxDepth {
		p.Fail(src, "merge keys (<<) nested more than %d deep", p.limits.MaxDepth)
	}
	p.merging[src] = true
	p.depth++
	defer func() { delete(p.merging, src); p.depth-- }()
	return p.Fields(src, what, known)
}

// List returns the items of the sequence n; an empty value ("faults:" with
// nothing after it) is an empty list. More than limit items is an error.
func (p *Parser) List(n *yaml.Node, what any, limit int) []*yaml.Node {
	n = p.Resolve(n)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.Fail(n, "%s must be a list (lines starting with \"- \"), not %s", what, Describe(n))
	}
	if limit > 0 && len(n.Content) > limit {
		p.Fail(n.Content[limit], "too many %s: the limit is %d", what, limit)
	}
	return n.Content
}

// Scalar returns the resolved scalar n, which must not be empty.
func (p *Parser) Scalar(n *yaml.Node, name string) *yaml.Node {
	n = p.Resolve(n)
	if n.Kind != yaml.ScalarNode {
		p.Fail(n, "%s must be a single value, not %s", name, Describe(n))
	}
	if n.Tag == "!!null" {
		p.Fail(n, "%s has no value (give one or remove the line)", name)
	}
	return n
}

// Str reads text. Plain numbers and booleans are accepted as their written
// text, so "key: 8801" means the key "8801".
func (p *Parser) Str(n *yaml.Node, name string) string {
	n = p.Scalar(n, name)
	switch n.Tag {
	case "!!str", "!!int", "!!float", "!!bool":
		return n.Value
	}
	p.Fail(n, "%s must be text, not a %s value", name, clip(n.Tag))
	return ""
}

// integer reads a whole number that fits an int64.
func (p *Parser) integer(n *yaml.Node, name string) int64 {
	n = p.Scalar(n, name)
	var v int64
	if n.Tag != "!!int" && !(n.Tag == "!!float" && wholeNumber().MatchString(n.Value)) {
		p.Fail(n, "%s must be a whole number, not %s", name, Echo(n.Value))
	}
	// yaml.v3 tags a whole number beyond int64 as a float.
	if n.Tag != "!!int" || n.Decode(&v) != nil {
		p.Fail(n, "%s: %s is far too large (see the limits in docs/scenario-format.md)", name, Echo(n.Value))
	}
	return v
}

// SmallInt reads an integer that the format then range-checks; values
// beyond ±1e9 are refused here so they cannot wrap when stored in an int.
func (p *Parser) SmallInt(n *yaml.Node, name string) int {
	v := p.integer(n, name)
	if v > 1e9 || v < -1e9 {
		p.Fail(n, "%s: %d is far too large (see the limits in docs/scenario-format.md)", name, v)
	}
	return int(v)
}

// Float reads a finite number.
func (p *Parser) Float(n *yaml.Node, name string) float64 {
	n = p.Scalar(n, name)
	var v float64
	if (n.Tag != "!!float" && n.Tag != "!!int") || n.Decode(&v) != nil {
		p.Fail(n, "%s must be a number, not %s", name, Echo(n.Value))
	}
	// NaN would slip through every range check (all comparisons are false).
	if math.IsNaN(v) || math.IsInf(v, 0) {
		p.Fail(n, "%s must be a finite number, not %s", name, Echo(n.Value))
	}
	return v
}

// Boolean reads an unquoted true or false.
func (p *Parser) Boolean(n *yaml.Node, name string) bool {
	n = p.Scalar(n, name)
	switch {
	case n.Tag == "!!bool" && strings.EqualFold(n.Value, "true"):
		return true
	case n.Tag == "!!bool" && strings.EqualFold(n.Value, "false"):
		return false
	}
	p.Fail(n, "%s must be true or false (unquoted), not %s", name, Echo(n.Value))
	return false
}

// Duration reads a Go duration string. A bare 0 means 0s; any other bare
// number is refused because its unit would be a guess.
func (p *Parser) Duration(n *yaml.Node, name string) time.Duration {
	n = p.Scalar(n, name)
	d, msg := ParseDuration(n, p.limits)
	if msg.Format != "" {
		p.Fail(n, "%s: %s", name, msg)
	}
	return d
}

// wholeNumber is a decimal integer as written. It and durationSyntax are
// compiled on first use: only a value yaml.v3 did not already resolve
// (a float, a malformed duration) asks them.
var wholeNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[0-9]+$`) })

// durationSyntax is the form time.ParseDuration reads; a string of that
// form it still refuses is out of its range.
var durationSyntax = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?([0-9]*(\.[0-9]*)?(ns|us|µs|μs|ms|s|m|h))+$`)
})

// ParseDuration returns the duration written in n, or a message saying why
// it is not one (a zero Msg when it is).
func ParseDuration(n *yaml.Node, l Limits) (time.Duration, i18n.Msg) {
	v := strings.TrimSpace(n.Value)
	switch n.Tag {
	case "!!int", "!!float":
		if f, err := strconv.ParseFloat(v, 64); err == nil && f == 0 {
			return 0, i18n.Msg{}
		}
		return 0, i18n.M("%s has no unit; did you mean %ss? (durations look like 1.5s, 250ms, 2m)", clip(v), clip(v))
	case "!!str":
		d, err := time.ParseDuration(v)
		if err == nil {
			return d, i18n.Msg{}
		}
		if durationSyntax().MatchString(v) {
			// Well formed but beyond int64 nanoseconds (about 292 years).
			return 0, i18n.M("%s is far too long: durations are at most %s", Echo(v), l.MaxDuration)
		}
		if _, ferr := strconv.ParseFloat(v, 64); ferr == nil {
			return 0, i18n.M("%s has no unit; did you mean %ss? (durations look like 1.5s, 250ms, 2m)", Echo(v), clip(v))
		}
		return 0, i18n.M("%s is not a duration (durations look like 1.5s, 250ms, 2m, 1h30m)", Echo(v))
	}
	return 0, i18n.M("%s is not a duration (durations look like 1.5s, 250ms, 2m)", Echo(n.Value))
}

// keySetMapAbove is the size of mapping past which fields indexes its keys
// in a map; below it a scan of the entries read so far is cheaper than
// building the map (every mapping of a scenario is this small).
const keySetMapAbove = 16

// keySet answers "was this key read already, and where" for fields. Every
// key fields keeps is in its out slice, so a small mapping needs no index.
type keySet map[string]*yaml.Node

// newKeySet returns the index for a mapping of n keys: nil when a scan will do.
func newKeySet(n int) keySet {
	if n <= keySetMapAbove {
		return nil
	}
	return make(keySet, n)
}

// find returns the key node under which key was first read, or nil.
func (ks keySet) find(out []Entry, key string) *yaml.Node {
	if ks != nil {
		return ks[key]
	}
	for i := range out {
		if out[i].Key == key {
			return out[i].K
		}
	}
	return nil
}

// add records key, read under k (a no-op for a scanned set: out holds it).
func (ks keySet) add(key string, k *yaml.Node) {
	if ks != nil {
		ks[key] = k
	}
}
