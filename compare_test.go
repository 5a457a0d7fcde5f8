package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const failoverFile = "scenarios.yaml"

func TestCompareCommandHeadline(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"compare", "-f", failoverFile, "-s", "failover-single-vs-redlock"}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut.String())
	}
	for _, want := range []string{"lua-release: UNSAFE", "redlock: SAFE", "why: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestCompareCommandJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"compare", "-f", failoverFile, "-s", "failover-single-vs-redlock",
		"--strategies", "set-del,redlock", "--json"}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut.String())
	}
	var cols []struct {
		Strategy string `json:"strategy"`
		Safe     bool   `json:"safe"`
		Nodes    int    `json:"nodes"`
	}
	if err := json.Unmarshal(out.Bytes(), &cols); err != nil {
		t.Fatal(err)
	}
	if len(cols) != 2 || cols[0].Strategy != "set-del" || cols[1].Strategy != "redlock" || !cols[1].Safe || cols[1].Nodes != 5 {
		t.Fatalf("columns %+v", cols)
	}
}

func TestCompareCommandBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"compare"}, // no -s
		{"compare", "-f", failoverFile, "-s", "nope"},
		{"compare", "-f", failoverFile, "-s", "failover-single-vs-redlock", "--strategies", "paxos"},
		{"compare", "-f", "testdata/does-not-exist.yaml", "-s", "x"},
		{"compare", "-f", failoverFile, "-s", "failover-single-vs-redlock", "extra"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != exitBadInput {
			t.Errorf("%v: exit %d, want %d", args, code, exitBadInput)
		}
	}
}
