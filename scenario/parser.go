package scenario

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/scenario/yamlfile"
)

// parser is yamlfile's positioned walker with the format's limits and its
// own messages for a key that is not a field (a fault kind, a language, a
// metric); the sections' walks (load.go, format.go) are its methods.
type parser struct{ yamlfile.Parser }

// entry is one key: value pair of a mapping (yamlfile.Entry).
type entry = yamlfile.Entry

// yamlLimits are the bounds of limits.go that the walker enforces.
var yamlLimits = yamlfile.Limits{MaxVisits: maxNodeVisits, MaxDepth: maxMergeDepth, MaxDuration: fmtDur(MaxDuration)}

// newParser is a walker of one document (or block) named path in errors.
func newParser(path string) *parser {
	p := &parser{yamlfile.NewParser(path, yamlLimits)}
	p.Unknown = unknownKey
	return p
}

// unknownKey fails on a key of a mapping whose keys are not fields: the
// faults' kinds, the languages of i18n, the metrics of expect.
func unknownKey(p *yamlfile.Parser, k *yaml.Node, what any) {
	switch fmt.Sprint(what) { // a key, or a phrase (an i18n.Msg)
	case "fault":
		p.Fail(k, "unknown fault kind %s (kinds: %s)", echo(k.Value), strings.Join(faults.KindNames(), ", "))
	case keyI18n:
		p.Fail(k, "unknown language %s in %s (languages: %s)", echo(k.Value), keyI18n, strings.Join(Languages[1:], ", "))
	case keyExpect:
		p.Fail(k, "unknown metric %s in %s (metrics: %s)", echo(k.Value), keyExpect, strings.Join(MetricNames, ", "))
	}
}

// walk runs read over root with a new parser and returns the *LoadError
// of the first problem (see yamlfile.Catch).
func walk[T any](path string, root *yaml.Node, read func(*parser, *yaml.Node) T) (out T, err error) {
	defer yamlfile.Catch(&err)
	return read(newParser(path), root), nil
}

// The message helpers of yamlfile, by the short names every check uses.
func echo(s string) string              { return yamlfile.Echo(s) }
func knownList(names []string) i18n.Msg { return yamlfile.KnownList(names) }
func pos(n *yaml.Node) Pos              { return yamlfile.PosOf(n) }
