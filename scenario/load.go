package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lockstep-sim/lockstep/scenario/yamlfile"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/model"
	"gopkg.in/yaml.v3"
)

// LoadFile reads the scenario file at path and loads it with Load. A path
// that cannot be read (empty, missing, a directory, unreadable) is a
// *LoadError without a position: "FILE: cannot read: is a directory".
func LoadFile(path string) (*File, error) {
	if path == "" {
		return nil, yamlfile.NoPos("", os.ErrNotExist, "no scenario file named (the path is empty)")
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, readError(path, err)
	}
	defer fh.Close()
	if st, err := fh.Stat(); err == nil && st.IsDir() {
		return nil, yamlfile.NoPos(path, syscall.EISDIR, "cannot read: is a directory")
	}
	// Read one byte past the limit so Load can tell "too big" from "exactly
	// the limit" without reading an arbitrarily large file into memory.
	data, err := io.ReadAll(io.LimitReader(fh, MaxFileSize+1))
	if err != nil {
		return nil, readError(path, err)
	}
	return Load(path, data)
}

// readError turns an open or read failure into "FILE: cannot read: why",
// without Go's "open FILE:" prefix repeating the path.
func readError(path string, err error) *LoadError {
	why := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		why = pe.Err
	}
	var msg any = why.Error()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		msg = i18n.M("no such file")
	case errors.Is(err, fs.ErrPermission):
		msg = i18n.M("permission denied")
	case errors.Is(err, syscall.EISDIR):
		msg = i18n.M("is a directory")
	}
	return yamlfile.NoPos(path, err, "cannot read: %s", msg)
}

// Load parses a scenarios.yaml document, applies the format's defaults and
// validates every scenario. path is used only in error messages. On failure
// the error is a *LoadError describing the first problem in file order.
func Load(path string, data []byte) (f *File, err error) {
	if path == "" {
		path = "<input>"
	}
	if len(data) > MaxFileSize {
		return nil, yamlfile.NewError(path, Pos{Line: 1, Col: 1}, "file is larger than the limit of %d bytes (4 MiB)", MaxFileSize)
	}
	if lerr := yamlfile.CheckText(path, data); lerr != nil {
		return nil, lerr
	}
	root, lerr := parseYAML(path, data)
	if lerr != nil {
		return nil, lerr
	}
	return walk(path, root, (*parser).file)
}

// parseYAML decodes exactly one YAML document into a node tree. yaml.v3 can
// panic on some malformed inputs, so that is turned into an error too.
func parseYAML(path string, data []byte) (root *yaml.Node, err *LoadError) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, yamlfile.NewError(path, Pos{Line: 1, Col: 1}, "invalid YAML: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if e := dec.Decode(&doc); e != nil {
		if errors.Is(e, io.EOF) {
			return nil, emptyFile(path)
		}
		return nil, yamlfile.FromYAML(path, data, e)
	}
	var extra yaml.Node
	if e := dec.Decode(&extra); !errors.Is(e, io.EOF) {
		if e != nil {
			return nil, yamlfile.FromYAML(path, data, e)
		}
		return nil, yamlfile.NewError(path, pos(&extra), "a second YAML document (after ---): put all scenarios in one document")
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, emptyFile(path)
	}
	return doc.Content[0], nil
}

// emptyFile is the error of a file with no document in it.
func emptyFile(path string) *LoadError {
	return yamlfile.NewError(path, Pos{Line: 1, Col: 1}, `file is empty: it must start with "%s: %d" and have a "%s:" list`, keyVersion, supportedFormat, keyScenarios)
}

// Find returns the scenario called name.
func (f *File) Find(name string) (*Scenario, error) {
	names := make([]string, 0, len(f.Scenarios))
	for _, s := range f.Scenarios {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return nil, &msgError{i18n.M("no scenario named %s in %s (known: %s)", echo(name), termtext.Escape(f.Path), strings.Join(names, ", "))}
}

// msgError is an error of the loader that is not about a place in a file
// (a scenario name the file lacks): its text is a sentence of the
// catalogue, which ErrorIn renders in another language.
type msgError struct{ m i18n.Msg }

func (e *msgError) Error() string { return e.m.String() }

// ErrorIn renders the error in language l.
func (e *msgError) ErrorIn(l i18n.Lang) string { return e.m.In(l) }

// Known keys of the mappings the field tables (format.go) do not cover, in
// the order the format documents them; the order is what "unknown field"
// messages list.
var (
	topKeys   = []string{keyVersion, keyScenarios}
	faultKeys = append([]string{faultAt}, faults.KindNames()...)
)

// defaultScenario returns a scenario holding every default of the format;
// parsing then overwrites what the file sets.
func defaultScenario() *Scenario {
	return &Scenario{
		Seed:    1,
		Network: Network{Latency: time.Millisecond},
		Redis: Redis{
			Nodes:          1,
			ReplicationLag: 10 * time.Millisecond,
			Persistence:    "none",
			Clock:          "wall",
		},
		Lock: Lock{
			Timeout: time.Second,
			Fencing: "none",
			Redlock: Redlock{DriftFactor: 0.01, RequestTimeout: model.DefaultNodeTimeout,
				Deadline: model.DeadlineNode, TimeoutFactor: DefaultTimeoutFactor, Decide: DecideAll, Elapsed: ElapsedWall, LeaseFrom: LeaseFromStart, ExtendLate: model.ExtendLateRefuse,
				ReleaseFailed: ReleaseFaileds[0]},
		},
	}
}

// posTable maps a field path ("lock.ttl", "clients[1].name",
// "faults[0].groups[1][0]") to where it is written, so that checks made
// after parsing (validate) can still point at the right spot.
type posTable map[string]Pos

// add records where path is written: a scalar at its value (most precise),
// a block at its key (a block's value starts on the next line).
func (pt posTable) add(path string, k, v *yaml.Node) {
	kind := v.Kind
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		kind = v.Alias.Kind
	}
	if kind == yaml.ScalarNode || k == nil {
		pt[path] = pos(v)
		return
	}
	pt[path] = pos(k)
}

func (pt posTable) has(path string) bool {
	_, ok := pt[path]
	return ok
}

// file walks the root mapping.
func (p *parser) file(root *yaml.Node) *File {
	f := &File{Path: p.Path}
	es := p.Fields(root, i18n.M("the top level"), topKeys)
	var version, scenarios *entry
	for i := range es {
		switch es[i].Key {
		case keyVersion:
			version = &es[i]
		case keyScenarios:
			scenarios = &es[i]
		}
	}
	// The version is checked first wherever it is written: a file of another
	// format version would otherwise report confusing errors about its body.
	if version == nil {
		p.Fail(root, `"%s: %d" is required at the top of the file (format version %d is the only one)`, keyVersion, supportedFormat, supportedFormat)
	}
	vn := p.Scalar(version.V, keyVersion)
	if vn.Tag != "!!int" || vn.Value != strconv.Itoa(supportedFormat) {
		p.Fail(vn, "%s must be %d, the only format version, not %s", keyVersion, supportedFormat, echo(vn.Value))
	}
	f.Version = supportedFormat
	if scenarios == nil {
		p.Fail(root, `no "%s:" list: the file needs at least one scenario`, keyScenarios)
	}
	items := p.List(scenarios.V, keyScenarios, MaxScenarios)
	if len(items) == 0 {
		p.Fail(scenarios.K, "the %s list is empty: the file needs at least one scenario", keyScenarios)
	}
	first := map[string]Pos{}
	for _, it := range items {
		s, pt := p.scenario(it)
		// Redlock's N independent masters default to the five of the
		// redis.io text rather than the format's single node.
		if s.Lock.Strategy == model.StrategyRedlock && !pt.has(dot(keyRedis, keyNodes)) {
			s.Redis.Nodes = RedlockNodes
		}
		// Validate each scenario before walking the next so the error
		// returned is the first in the file.
		e := validate(s, pt)
		if prev, dup := first[s.Name]; dup && s.Name != "" {
			d := &problem{pt[keyName], i18n.M("duplicate scenario %s %s (first at line %d)", keyName, echo(s.Name), prev.Line)}
			if e == nil || d.Pos.Before(e.Pos) {
				e = d
			}
		}
		if e != nil {
			panic(yamlfile.NewError(p.Path, e.Pos, "%s", e.Msg))
		}
		first[s.Name] = s.Pos
		f.Scenarios = append(f.Scenarios, s)
	}
	return f
}

// scenario walks one item of the scenarios list.
func (p *parser) scenario(n *yaml.Node) (*Scenario, posTable) {
	s := defaultScenario()
	// Sized for a typical scenario's ~40 positioned fields: the map
	// would otherwise grow (and rehash) four times per scenario.
	pt := make(posTable, 64)
	n = p.Resolve(n)
	s.Pos = pos(n)
	readSection(p, n, scenarioSection, s, "", pt)
	return s, pt
}

func (p *parser) client(n *yaml.Node, path string, pt posTable) Client {
	n = p.Resolve(n)
	c := Client{Pos: pos(n), Holds: 1}
	pt[path] = pos(n)
	readSection(p, n, clientSection, &c, path, pt)
	return c
}

// faultAt is the key of a fault's time, beside its kind.
const faultAt = "at"

// fault walks one item of faults: "at:" plus exactly one kind, whose fields
// the kind's spec lists (faults.Spec.Fields). It returns the fault and where
// it is written.
func (p *parser) fault(n *yaml.Node, path string, pt posTable) (faults.Fault, Pos) {
	n = p.Resolve(n)
	var f faults.Fault
	pt[path] = pos(n)
	var kind *entry
	es := p.Fields(n, i18n.M("fault"), faultKeys)
	for i, e := range es {
		if e.Key == faultAt {
			pt.add(path+"."+faultAt, e.K, e.V)
			f.At = p.Duration(e.V, faultAt)
			continue
		}
		if kind != nil {
			p.Fail(e.K, "a fault has exactly one kind, this one has two (%s and %s): use one list item per fault", kind.Key, e.Key)
		}
		kind = &es[i]
	}
	if kind == nil {
		p.Fail(n, "fault has no kind: add one of %s", strings.Join(faults.KindNames(), ", "))
	}
	f.Kind = faults.Kind(kind.Key)
	spec := faults.Lookup(f.Kind)
	// The kind's fields are recorded under the kind ("faults[0].pause.for")
	// so that a missing one is reported at the kind's key.
	kp := path + "." + kind.Key
	pt[kp] = pos(kind.K)
	names := make([]string, len(spec.Fields))
	for i, fd := range spec.Fields {
		names[i] = fd.Name
	}
	for _, e := range p.Fields(kind.V, kind.Key, names) {
		pt.add(kp+"."+e.Key, e.K, e.V)
		fd := spec.Fields[slices.Index(names, e.Key)]
		p.faultField(e.V, kind.Key+"."+e.Key, kp+"."+e.Key, pt, fd.Ptr(&f))
	}
	return f, pos(n)
}

// faultField reads one field of a fault into dst, by dst's type.
func (p *parser) faultField(n *yaml.Node, name, path string, pt posTable, dst any) {
	switch v := dst.(type) {
	case *string:
		*v = p.Str(n, name)
	case *time.Duration:
		*v = p.Duration(n, name)
	case *float64:
		*v = p.Float(n, name)
	case *[][]string:
		*v = p.groups(n, name, path, pt)
	default:
		panic(fmt.Sprintf("fault field %s of type %T", name, dst))
	}
}

// groups reads partition groups: a list of lists of process names.
func (p *parser) groups(n *yaml.Node, name, path string, pt posTable) [][]string {
	var out [][]string
	for i, g := range p.List(n, name, 0) {
		gp := fmt.Sprintf("%s[%d]", path, i)
		pt[gp] = pos(p.Resolve(g))
		var names []string
		for j, m := range p.List(g, i18n.M("each partition group"), 0) {
			pt.add(fmt.Sprintf("%s[%d]", gp, j), nil, p.Resolve(m))
			names = append(names, p.Str(m, "a partition group member"))
		}
		out = append(out, names)
	}
	return out
}
