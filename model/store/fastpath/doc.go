// Package fastpath answers the lock commands of a node's store in Go
// instead of through miniredis's dispatcher and its Lua: Go twins of the
// project's Lua scripts (and of the real libraries' ones the harness
// sends), and the hot plain commands. Each answer must give the reply and
// the data miniredis would, byte for byte, or decline before it writes;
// the differential and conformance tests of model/redis compare the two
// paths. It works on the store's miniredis through Host and knows nothing
// of the store's effects, expiry clock or connections beyond what Host
// says. The scripts' sources are here, beside their twins (scripts.go);
// package store names them for the model.
package fastpath
