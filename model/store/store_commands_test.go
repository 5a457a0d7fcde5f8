package store

import "testing"

// classify's switch for the hot commands must agree with the tables it
// shortcuts, for every command either table names.
func TestClassifyAgreesWithTables(t *testing.T) {
	names := []string{"SET", "PEXPIRE", "INCR", "HINCRBY", "HSET", "EVALSHA", "EVAL", "DEL", "GET",
		"EXISTS", "PTTL", "HGET", "NOSUCH"}
	for c := range writeCommands {
		names = append(names, c)
	}
	for c := range connStateCommands {
		names = append(names, c)
	}
	for c := range readCommands {
		names = append(names, c)
	}
	for _, c := range names {
		spec, w, cs := classify(c)
		wantSpec, wantW := writeCommands[c]
		if spec != wantSpec || w != wantW || cs != connStateCommands[c] {
			t.Errorf("%s: classify = %v %v %v, tables say %v %v %v", c, spec, w, cs, wantSpec, wantW, connStateCommands[c])
		}
	}
}
