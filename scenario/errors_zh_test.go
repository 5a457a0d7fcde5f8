package scenario

import (
	"errors"
	"fmt"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// formatArg is, for each function that makes a loader message from a
// format and its arguments, the index of the format among its arguments.
var formatArg = map[string]int{
	"NewError": 2, // yamlfile: NewError(path, pos, format, args...)
	"NoPos":    2, // yamlfile: NoPos(path, cause, format, args...)
	"Fail":     1, // yamlfile: p.Fail(node, format, args...)
	"errorf":   1, // scenario: c.errorf(path, format, args...)
	"report":   1, // scenario: c.report(pos, format, args...)
	"Errorf":   1, // faults: c.Errorf(field, format, args...) (not fmt.Errorf)
	"M":        0, // i18n.M(format, args...): a nested phrase, or a msgError's text
}

// loaderFormats returns every format the loader's messages are made from
// in the non-test files of dirs, keyed by format with a position for the
// failure message, and the calls whose format is not a constant (which
// the catalogue could not be checked against). A format given by a
// forwarding parameter named format is the forwarder's business.
func loaderFormats(t *testing.T, dirs ...string) (map[string]string, []string) {
	t.Helper()
	fset := token.NewFileSet()
	formats := map[string]string{}
	var opaque []string
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		var parsed []*ast.File
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := goparser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, f)
		}
		consts := stringConsts(parsed)
		for _, f := range parsed {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				name, i, ok := loaderCall(call)
				if !ok || i >= len(call.Args) {
					return true
				}
				at := fset.Position(call.Pos()).String()
				if id, ok := call.Args[i].(*ast.Ident); ok && id.Name == "format" {
					return true
				}
				if s, ok := constString(call.Args[i], consts); ok {
					formats[s] = at
				} else if built(call.Args[i]) {
					opaque = append(opaque, at+": "+name)
				}
				return true
			})
		}
	}
	return formats, opaque
}

// built reports whether e makes a string at run time (a concatenation or
// a fmt.Sprintf): a format the scan cannot know. Other expressions (a
// variable, another method's result) are not formats of messages.
func built(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		return x.Op == token.ADD
	case *ast.CallExpr:
		sel, ok := x.Fun.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Sprintf"
	}
	return false
}

// loaderCall reports whether call is to one of formatArg's functions, and
// the index of its format. fmt.Errorf is not one: its errors are not a
// loader's messages.
func loaderCall(call *ast.CallExpr) (string, int, bool) {
	var name string
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		name = fn.Name
	case *ast.SelectorExpr:
		x, _ := fn.X.(*ast.Ident)
		name = fn.Sel.Name
		if x != nil && x.Name == "fmt" || name == "M" && (x == nil || x.Name != "i18n") {
			return "", 0, false
		}
	default:
		return "", 0, false
	}
	i, ok := formatArg[name]
	return name, i, ok
}

// stringConsts maps the package's string constants to their values (only
// those made of literals and other such constants joined by +).
func stringConsts(files []*ast.File) map[string]string {
	exprs := map[string]ast.Expr{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						exprs[n.Name] = vs.Values[i]
					}
				}
			}
		}
	}
	out := map[string]string{}
	for name, e := range exprs {
		if v, ok := evalString(e, exprs, 0); ok {
			out[name] = v
		}
	}
	return out
}

func evalString(e ast.Expr, exprs map[string]ast.Expr, depth int) (string, bool) {
	if depth > 20 {
		return "", false
	}
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.Ident:
		if d, ok := exprs[x.Name]; ok {
			return evalString(d, exprs, depth+1)
		}
	case *ast.ParenExpr:
		return evalString(x.X, exprs, depth+1)
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			a, ok1 := evalString(x.X, exprs, depth+1)
			b, ok2 := evalString(x.Y, exprs, depth+1)
			return a + b, ok1 && ok2
		}
	}
	return "", false
}

func constString(e ast.Expr, consts map[string]string) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			s, err := strconv.Unquote(x.Value)
			return s, err == nil
		}
	case *ast.Ident:
		s, ok := consts[x.Name]
		return s, ok
	}
	return "", false
}

// TestLoaderMessagesTranslated: every format a loader message (of the
// scenario package or of a fault kind's Check) is made from, and every
// nested phrase, has a zh entry in the catalogue; the catalogue's own
// checks (same verbs in the same order, Chinese text) cover the entries.
// A format that is not a constant cannot be checked and fails too.
func TestLoaderMessagesTranslated(t *testing.T) {
	formats, opaque := loaderFormats(t, ".", "yamlfile", "../faults")
	if len(formats) < 100 {
		t.Fatalf("found only %d formats: the scan is broken", len(formats))
	}
	for _, o := range opaque {
		t.Errorf("%s: the format is not a constant, so its translation cannot be checked", o)
	}
	var keys []string
	for k := range formats {
		if k != "%s" && !i18n.Has(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Errorf("%s: no zh entry for %q", formats[k], k)
	}
	for _, p := range i18n.Check(loaderEntries) {
		t.Error(p)
	}
}

// TestProfileRefusalsTranslated: a profile's refusal (why it cannot take a
// key) is a nested phrase of the catalogue, so it has a zh entry, and no
// fmt verb (it is rendered as a format without arguments).
func TestProfileRefusalsTranslated(t *testing.T) {
	n := 0
	for _, pr := range Profiles {
		for _, r := range pr.refuse {
			n++
			if strings.Contains(r.why, "%") || !i18n.Has(r.why) {
				t.Errorf("profile %s: refusal %q has no zh entry (or holds a %%)", pr.Name, r.why)
			}
		}
	}
	if n == 0 {
		t.Fatal("no refusals found")
	}
}

// TestFaultNeedsTranslated: a fault kind's Need (what its target must be)
// is a nested phrase of the catalogue.
func TestFaultNeedsTranslated(t *testing.T) {
	n := 0
	for _, k := range faults.Kinds {
		if need := faults.Lookup(k).Need; need != "" {
			n++
			if strings.Contains(need, "%") || !i18n.Has(need) {
				t.Errorf("fault %s: Need %q has no zh entry (or holds a %%)", k, need)
			}
		}
	}
	if n == 0 {
		t.Fatal("no fault kind has a Need")
	}
}

// loaderGlossary: where a loader message uses a term as a word of its
// sentence, the zh text uses the tutorials' word (docs/glossary.md).
var loaderGlossary = []struct{ en, zh string }{
	{"lock", "锁"}, {"holder", "持有者"}, {"watchdog", "看门狗"}, {"renew", "续期"},
	{"failover|fail over", "主从切换"}, {"split brain", "脑裂"}, {"clock jump", "时钟跳变"},
	{"fencing token", "围栏令牌"}, {"quorum", "多数派"}, {"validity", "有效时间"}, {"replica", "从库"},
}

// fieldLike are the Latin words of a message that are the format's own
// (lock.ttl, lock.client:, watchdog.every): they stay Latin in zh.
var fieldLike = regexp.MustCompile(`[A-Za-z_]+(\.[A-Za-z_]+)+:?|[a-z]+_[a-z_]+`)

func TestLoaderCatalogueUsesGlossary(t *testing.T) {
	for _, e := range loaderEntries {
		low := strings.ToLower(fieldLike.ReplaceAllString(e.Key, ""))
		for _, g := range loaderGlossary {
			if regexp.MustCompile(`\b(`+g.en+`)(s|es|ed|ing|al)?\b`).MatchString(low) && !strings.Contains(e.ZH, g.zh) {
				t.Errorf("key %q uses %q but zh %q lacks %q", e.Key, g.en, e.ZH, g.zh)
			}
		}
	}
}

// TestLoadErrorsComposeInZH: a message made of other messages (a
// validation finding inside FILE:LINE:COL, describe's phrase, a required
// field's description, a design problem's reason, a cut "known:" list, an
// expectation's complaint) renders every part in zh, and in English is
// Error() byte for byte.
func TestLoadErrorsComposeInZH(t *testing.T) {
	base := "version: 1\nscenarios:\n  - name: x\n    duration: 10s\n"
	lock := "    lock: {key: k, strategy: set-del, ttl: 5s}\n"
	one := "    clients: [{name: A, work: 1s}]\n"
	var many strings.Builder
	many.WriteString("    clients:\n")
	for i := range 40 {
		fmt.Fprintf(&many, "      - {name: client-with-a-long-name-%02d, work: 1s}\n", i)
	}
	cases := []struct{ name, body, zh string }{
		{"required with a description", "version: 1\nscenarios:\n  - name: x\n" + lock + one, "缺少 duration（模拟时间的上限，例如 duration: 90s）"},
		{"describe", base + "    lock: [a]\n" + one, "lock 必须是映射（key: value 的行），而不是列表"},
		{"design reason", base + "    lock: {key: k, strategy: set-del, ttl: 5s, watchdog: {every: 1s}}\n" + one,
			"lock.watchdog 需要策略 lua-release 或 redlock；策略 set-del 不存持有者，无法续期"},
		{"cut known list", base + lock + many.String() + "    faults: [{at: 1s, crash: {target: nobody}}]\n", "……还有 "},
		{"expectation", base + lock + one + "    expect: {wrong_releases: \"about 3\"}\n", "无效的期望 \"about 3\"（wrong_releases）"},
		{"duration in a field", base + "    lock: {key: k, strategy: set-del, ttl: 30}\n" + one, "lock.ttl：30 没有单位；是想写 30s 吗？"},
		{"fault need", base + lock + one + "    faults: [{at: 1s, failover: {target: A}}]\n", "failover 需要主库节点 redis-1..redis-N 作为 target"},
	}
	for _, c := range cases {
		i18n.Missing()
		_, err := Load("x.yaml", []byte(c.body))
		var le *LoadError
		if !errors.As(err, &le) {
			t.Errorf("%s: %v is not a *LoadError", c.name, err)
			continue
		}
		if en := le.ErrorIn(i18n.EN); en != le.Error() {
			t.Errorf("%s: en %q, Error() %q", c.name, en, le.Error())
		}
		zh := le.ErrorIn(i18n.ZH)
		if !strings.Contains(zh, c.zh) || !strings.HasPrefix(zh, "x.yaml:") {
			t.Errorf("%s: zh %q lacks %q (en %q)", c.name, zh, c.zh, le.Error())
		}
		if m := i18n.Missing(); len(m) != 0 {
			t.Errorf("%s: phrases without a zh entry: %q", c.name, m)
		}
	}
}

// TestFindErrorInZH: a scenario name the file lacks is said in zh, and in
// English as before.
func TestFindErrorInZH(t *testing.T) {
	f, err := Load("x.yaml", []byte("version: 1\nscenarios:\n  - name: x\n    duration: 10s\n    lock: {key: k, strategy: set-del, ttl: 5s}\n    clients: [{name: A, work: 1s}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Find("nope")
	var in interface{ ErrorIn(i18n.Lang) string }
	if !errors.As(err, &in) {
		t.Fatalf("%v (%T) has no ErrorIn", err, err)
	}
	if en := `no scenario named "nope" in x.yaml (known: x)`; err.Error() != en || in.ErrorIn(i18n.EN) != en {
		t.Errorf("en %q / %q, want %q", err.Error(), in.ErrorIn(i18n.EN), en)
	}
	if zh := in.ErrorIn(i18n.ZH); zh != `"nope" 不是 x.yaml 中的场景（已知：x）` {
		t.Errorf("zh %q", zh)
	}
}

// TestYAMLProblemsInZH: yaml.v3's own problem texts, for the malformed
// documents people write, are phrases of the catalogue.
func TestYAMLProblemsInZH(t *testing.T) {
	for _, doc := range []string{
		"version: 1\nscenarios: [\n",
		"version: 1\nscenarios:\n  - name: x\n   duration: 1s\n",
		"version: 1\nscenarios:\n  - name: x: y\n",
		"version: 1\nscenarios: [{name: x\n",
		"version: 1\nscenarios: \"open\n",
		"version: 1\nscenarios:\n  - name: x\n  duration: 1s\n - y\n",
	} {
		i18n.Missing()
		_, err := Load("m.yaml", []byte(doc))
		var le *LoadError
		if !errors.As(err, &le) || !strings.Contains(le.Error(), "invalid YAML: ") {
			t.Errorf("%q: %v is not an invalid YAML error", doc, err)
			continue
		}
		if zh := le.ErrorIn(i18n.ZH); strings.ContainsAny(zh[strings.Index(zh, "：")+1:], "abcdefghijklmnopqrstuvwxyz") {
			t.Errorf("%q: zh %q keeps yaml.v3's English (%q)", doc, zh, le.Error())
		}
	}
}
