package scenario

// The low-level walk over yaml.v3 nodes: typed reads of scalars, mappings
// with merge keys, lists, and the expansion budget that stops alias bombs.

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// parser walks the yaml.Node tree by hand rather than decoding into structs,
// so that every value keeps its line and column for error messages, and so
// that unknown keys, duplicate keys and wrong kinds are caught exactly where
// they are written.
type parser struct {
	path    string
	budget  int                 // node visits left; guards against alias blowups
	merging map[*yaml.Node]bool // mappings being merged now; guards against cycles
	depth   int                 // current merge nesting
}

// fail stops the walk with an error at n's position.
func (p *parser) fail(n *yaml.Node, format string, args ...any) {
	panic(newError(p.path, pos(n), format, args...))
}

func pos(n *yaml.Node) Pos { return Pos{Line: n.Line, Col: n.Column} }

// resolve follows an alias to its anchored node and charges the visit
// budget, so a small file whose aliases expand to millions of nodes is
// rejected instead of walked.
func (p *parser) resolve(n *yaml.Node) *yaml.Node {
	at := n
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	p.budget--
	if p.budget < 0 {
		p.fail(at, "the document is too large once its aliases are expanded (more than %d nodes)", maxNodeVisits)
	}
	return n
}

// describe names a node's kind for "X must be ..., not Y" messages.
func describe(n *yaml.Node) i18n.Msg {
	switch n.Kind {
	case yaml.MappingNode:
		return i18n.M("a mapping")
	case yaml.SequenceNode:
		return i18n.M("a list")
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return i18n.M("nothing (the value is empty)")
		}
		return i18n.M("the value %s", echo(n.Value))
	}
	return i18n.M("an unsupported YAML node")
}

// entry is one key: value pair of a mapping, after merge keys are applied.
type entry struct {
	key  string
	k, v *yaml.Node
}

// fields returns the pairs of the mapping n, which must use only the keys in
// known, each at most once. YAML merge keys ("<<: *base") are honoured so a
// file can share blocks between scenarios; as in YAML, keys written in the
// mapping override merged ones, and earlier merged mappings override later.
func (p *parser) fields(n *yaml.Node, what any, known []string) []entry {
	n = p.resolve(n)
	if n.Kind != yaml.MappingNode {
		p.fail(n, "%s must be a mapping (key: value lines), not %s", what, describe(n))
	}
	out := make([]entry, 0, len(n.Content)/2)
	var merges []*yaml.Node
	seen := newKeySet(len(n.Content) / 2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := p.resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.fail(k, "keys in %s must be plain names, not %s", what, describe(k))
		}
		if k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if !slices.Contains(known, k.Value) {
			switch fmt.Sprint(what) { // a key, or a phrase (an i18n.Msg)
			case "fault":
				p.fail(k, "unknown fault kind %s (kinds: %s)", echo(k.Value), strings.Join(faults.KindNames(), ", "))
			case keyI18n:
				p.fail(k, "unknown language %s in %s (languages: %s)", echo(k.Value), keyI18n, strings.Join(Languages[1:], ", "))
			case keyExpect:
				p.fail(k, "unknown metric %s in %s (metrics: %s)", echo(k.Value), keyExpect, strings.Join(MetricNames, ", "))
			}
			p.fail(k, "unknown field %s in %s (known: %s)", echo(k.Value), what, strings.Join(known, ", "))
		}
		if prev := seen.find(out, k.Value); prev != nil {
			p.fail(k, "duplicate field %s in %s (first at line %d)", echo(k.Value), what, prev.Line)
		}
		seen.add(k.Value, k)
		out = append(out, entry{k.Value, k, v})
	}
	for _, m := range merges {
		for _, src := range p.mergeSources(m) {
			for _, e := range p.mergeFields(src, what, known) {
				if seen.find(out, e.key) == nil {
					seen.add(e.key, e.k)
					out = append(out, e)
				}
			}
		}
	}
	return out
}

// mergeSources returns the mappings named by a "<<:" value: one mapping or a
// list of them.
func (p *parser) mergeSources(m *yaml.Node) []*yaml.Node {
	m = p.resolve(m)
	switch m.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{m}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, it := range m.Content {
			it = p.resolve(it)
			if it.Kind != yaml.MappingNode {
				p.fail(it, "a merge key (<<) takes a mapping or a list of mappings, not a list holding %s", describe(it))
			}
			out = append(out, it)
		}
		return out
	}
	p.fail(m, "a merge key (<<) takes a mapping or a list of mappings, not %s", describe(m))
	return nil
}

// mergeFields reads a merged mapping, refusing cycles (an anchor merged into
// itself) and absurd nesting, either of which would recurse without end.
func (p *parser) mergeFields(src *yaml.Node, what any, known []string) []entry {
	if p.merging[src] {
		p.fail(src, "this mapping is merged (<<) into itself")
	}
	if p.depth >= maxMergeDepth {
		p.fail(src, "merge keys (<<) nested more than %d deep", maxMergeDepth)
	}
	p.merging[src] = true
	p.depth++
	defer func() { delete(p.merging, src); p.depth-- }()
	return p.fields(src, what, known)
}

// list returns the items of the sequence n; an empty value ("faults:" with
// nothing after it) is an empty list. More than limit items is an error.
func (p *parser) list(n *yaml.Node, what any, limit int) []*yaml.Node {
	n = p.resolve(n)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.fail(n, "%s must be a list (lines starting with \"- \"), not %s", what, describe(n))
	}
	if limit > 0 && len(n.Content) > limit {
		p.fail(n.Content[limit], "too many %s: the limit is %d", what, limit)
	}
	return n.Content
}

// scalar returns the resolved scalar n, which must not be empty.
func (p *parser) scalar(n *yaml.Node, name string) *yaml.Node {
	n = p.resolve(n)
	if n.Kind != yaml.ScalarNode {
		p.fail(n, "%s must be a single value, not %s", name, describe(n))
	}
	if n.Tag == "!!null" {
		p.fail(n, "%s has no value (give one or remove the line)", name)
	}
	return n
}

// str reads text. Plain numbers and booleans are accepted as their written
// text, so "key: 8801" means the key "8801".
func (p *parser) str(n *yaml.Node, name string) string {
	n = p.scalar(n, name)
	switch n.Tag {
	case "!!str", "!!int", "!!float", "!!bool":
		return n.Value
	}
	p.fail(n, "%s must be text, not a %s value", name, clip(n.Tag))
	return ""
}

func (p *parser) integer(n *yaml.Node, name string) int64 {
	n = p.scalar(n, name)
	var v int64
	if n.Tag != "!!int" && !(n.Tag == "!!float" && wholeNumber.MatchString(n.Value)) {
		p.fail(n, "%s must be a whole number, not %s", name, echo(n.Value))
	}
	// yaml.v3 tags a whole number beyond int64 as a float.
	if n.Tag != "!!int" || n.Decode(&v) != nil {
		p.fail(n, "%s: %s is far too large (see the limits in docs/scenario-format.md)", name, echo(n.Value))
	}
	return v
}

// smallInt reads an integer that is then range-checked by validate; values
// beyond ±1e9 are refused here so they cannot wrap when stored in an int.
func (p *parser) smallInt(n *yaml.Node, name string) int {
	v := p.integer(n, name)
	if v > 1e9 || v < -1e9 {
		p.fail(n, "%s: %d is far too large (see the limits in docs/scenario-format.md)", name, v)
	}
	return int(v)
}

func (p *parser) float(n *yaml.Node, name string) float64 {
	n = p.scalar(n, name)
	var v float64
	if (n.Tag != "!!float" && n.Tag != "!!int") || n.Decode(&v) != nil {
		p.fail(n, "%s must be a number, not %s", name, echo(n.Value))
	}
	// NaN would slip through every range check (all comparisons are false).
	if math.IsNaN(v) || math.IsInf(v, 0) {
		p.fail(n, "%s must be a finite number, not %s", name, echo(n.Value))
	}
	return v
}

func (p *parser) boolean(n *yaml.Node, name string) bool {
	n = p.scalar(n, name)
	switch {
	case n.Tag == "!!bool" && strings.EqualFold(n.Value, "true"):
		return true
	case n.Tag == "!!bool" && strings.EqualFold(n.Value, "false"):
		return false
	}
	p.fail(n, "%s must be true or false (unquoted), not %s", name, echo(n.Value))
	return false
}

// duration reads a Go duration string. A bare 0 means 0s; any other bare
// number is refused because its unit would be a guess.
func (p *parser) duration(n *yaml.Node, name string) time.Duration {
	n = p.scalar(n, name)
	d, msg := parseDuration(n)
	if msg.Format != "" {
		p.fail(n, "%s: %s", name, msg)
	}
	return d
}

// wholeNumber is a decimal integer as written.
var wholeNumber = regexp.MustCompile(`^[-+]?[0-9]+$`)

// durationSyntax is the form time.ParseDuration reads; a string of that
// form it still refuses is out of its range.
var durationSyntax = regexp.MustCompile(`^[-+]?([0-9]*(\.[0-9]*)?(ns|us|µs|μs|ms|s|m|h))+$`)

// parseDuration returns the duration written in n, or a message saying why
// it is not one (a zero Msg when it is).
func parseDuration(n *yaml.Node) (time.Duration, i18n.Msg) {
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
		if durationSyntax.MatchString(v) {
			// Well formed but beyond int64 nanoseconds (about 292 years).
			return 0, i18n.M("%s is far too long: durations are at most %s", echo(v), fmtDur(MaxDuration))
		}
		if _, ferr := strconv.ParseFloat(v, 64); ferr == nil {
			return 0, i18n.M("%s has no unit; did you mean %ss? (durations look like 1.5s, 250ms, 2m)", echo(v), clip(v))
		}
		return 0, i18n.M("%s is not a duration (durations look like 1.5s, 250ms, 2m, 1h30m)", echo(v))
	}
	return 0, i18n.M("%s is not a duration (durations look like 1.5s, 250ms, 2m)", echo(n.Value))
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
func (ks keySet) find(out []entry, key string) *yaml.Node {
	if ks != nil {
		return ks[key]
	}
	for i := range out {
		if out[i].key == key {
			return out[i].k
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
