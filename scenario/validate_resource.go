package scenario

import "github.com/lockstep-sim/lockstep/model"

// ResourceChecks and IdempotencyModes are resource.check's and
// resource.idempotency's values, in documented order; the first is the
// default.
var (
	ResourceChecks   = []string{"all", "writes"}
	IdempotencyModes = []string{"none", model.IdempotencyJob}
)

// resource checks the resource block: its values, and that the token
// settings have a fencing token to work on (without one they would do
// nothing, and a file that says otherwise misleads its reader).
func (c *checker) resource() {
	r := c.s.Resource
	if r == nil {
		return
	}
	at := func(k string) string { return dot(keyResource, k) }
	c.oneOf(at(keyCheck), at(keyCheck), r.Check, ResourceChecks)
	c.intRange(at(keyStartToken), at(keyStartToken), r.StartToken, 1, MaxStartToken)
	c.oneOf(at(keyIdempotency), at(keyIdempotency), r.Idempotency, IdempotencyModes)
	token := c.s.Lock.Fencing == "token"
	if r.Check == "writes" && !token && c.given(at(keyCheck)) {
		c.errorf(at(keyCheck), "%s: writes needs %s.%s: token (it says which requests have their token checked)",
			at(keyCheck), keyLock, keyFencing)
	}
	if r.StartToken > 1 && !token && c.given(at(keyStartToken)) {
		c.errorf(at(keyStartToken), "%s needs %s.%s: token (without fencing the lock hands out no tokens)",
			at(keyStartToken), keyLock, keyFencing)
	}
}
