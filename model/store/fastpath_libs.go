package store

// Go twins of real lock libraries' scripts (scripts.go, the harness). The
// ones whose logic is the project's own reuse fastRelease and fastRenew.

// fastRedsyncDelete is ScriptRedsyncDelete: GET; DEL if ours, -1 if the
// key is gone, else 0.
func fastRedsyncDelete(f *fastPath, keys, argv []string) (luaReply, bool) {
	r, ok := f.plain("GET", keys[:1])
	if !ok {
		v, err := f.call("GET", keys[0])
		if err != nil {
			return luaReply{}, false // a wrong type: Lua raises
		}
		s, isStr := v.(string)
		r = plainReply{kind: plainNull}
		if isStr {
			r = plainReply{kind: plainBulk, s: s}
		}
	}
	switch {
	case r.kind == plainNull:
		return luaInt(-1), true
	case r.kind != plainBulk:
		return luaReply{}, false
	case r.s != argv[0]:
		return luaInt(0), true
	}
	return luaInt(luaNum(f.mustCall("redsync-delete", "DEL", keys[0]).(int))), true
}

// fastRedsyncTouchSetNX is ScriptRedsyncTouchSetNX: PEXPIRE if ours, else
// SET NX PX (1 if it took the key, 0 if another holds it).
func fastRedsyncTouchSetNX(f *fastPath, keys, argv []string) (luaReply, bool) {
	if r, ok, decided := f.owned(argv[0], "GET", keys[0]); !decided {
		return f.pexpire(keys[0], argv[1])
	} else if !ok {
		return r, false
	}
	if !validPX(argv[1]) {
		return luaReply{}, false // SET raises: nothing written yet
	}
	r, err := f.call("SET", keys[0], argv[0], "PX", argv[1], "NX")
	if err != nil {
		return luaReply{}, false
	}
	if r == nil {
		return luaInt(0), true
	}
	return luaInt(1), true
}

// keepsRESP2 reports a HELLO that changes nothing the fast path could
// miss: "HELLO" or "HELLO 2" alone, which every go-redis connection sends
// first (it names no user, password or client, and keeps RESP2). Any other
// HELLO taints the connection as before.
func keepsRESP2(cmd string, args []string) bool {
	return cmd == "HELLO" && (len(args) == 1 || len(args) == 2 && args[1] == "2")
}
