package model_test

import (
	_ "github.com/lockstep-sim/lockstep/model/recipe" // the worlds here run lua-release
)

const key = "lock:test"
