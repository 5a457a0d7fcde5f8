package scenario

import (
	"bytes"
	"os"
	"testing"
)

// exportsGolden holds every bundled scenario as Export writes it (no
// options, own expectations), one document after another: the exporter's
// output is pinned byte for byte, key order included (files exported
// earlier must read the same as files exported now).
const exportsGolden = "../testdata/exports.golden"

func TestExportGolden(t *testing.T) {
	f, err := LoadFile("../scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	for _, s := range f.Scenarios {
		data, err := Export(s, Options{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		all.Write(data)
	}
	if updating() {
		if err := os.WriteFile(exportsGolden, all.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(exportsGolden)
	if err != nil {
		t.Fatalf("%v (create it with go test ./scenario -run TestExportGolden -update)", err)
	}
	if !bytes.Equal(all.Bytes(), want) {
		t.Fatalf("exported YAML differs from %s:\n%s", exportsGolden, firstDiff(want, all.Bytes()))
	}
}
