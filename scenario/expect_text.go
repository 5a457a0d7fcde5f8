package scenario

import "github.com/lockstep-sim/lockstep/scenario/yamlfile"

// MaxExpectText bounds ParseExpect's input (harness.Config.Expect, check --expect): an expect: block has one line
// per metric, so 64 KiB is far more than any needs.
const MaxExpectText = 64 << 10

// ParseExpect reads an expect: mapping written on its own, in the same
// syntax as a scenario's expect: block (package harness's Config.Expect):
// "violations: 0", `lost_updates: ">= 1"`, "safe: false". path names it
// in errors, which are *LoadError (FILE:LINE:COL: message). Empty text
// expects nothing.
func ParseExpect(path, src string) (out []Expectation, err error) {
	if len(src) > MaxExpectText {
		return nil, yamlfile.NewError(path, Pos{Line: 1, Col: 1}, "expectations are longer than the limit of %d bytes", MaxExpectText)
	}
	if lerr := yamlfile.CheckText(path, []byte(src)); lerr != nil {
		return nil, lerr
	}
	root, lerr := parseYAML(path, []byte(src))
	if lerr != nil {
		if lerr.Msg == emptyFile(path).Msg {
			return nil, nil
		}
		return nil, lerr
	}
	return walk(path, root, (*parser).expect)
}
