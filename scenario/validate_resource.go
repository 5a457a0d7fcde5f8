package scenario

import (
	"fmt"

	"github.com/lockstep-sim/lockstep/model"
)

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

// clientResources checks the clients' resource names, and the settings
// that keep one book for all resources (a cas stamp, the job keys), which
// clients on different resources would wrongly share.
func (c *checker) clientResources() {
	named := false
	for i, cl := range c.s.Clients {
		if cl.Resource == "" {
			continue
		}
		named = true
		p := fmt.Sprintf("%s[%d].%s", keyClients, i, keyResource)
		switch {
		case len(cl.Resource) > MaxClientNameLen:
			c.errorf(p, "%s must be at most %d bytes long (got %d)", p, MaxClientNameLen, len(cl.Resource))
		case !spelled(cl.Resource, resourceNameByte):
			c.errorf(p, "%s %s may hold only A-Z, a-z, 0-9, _, :, . and -", p, echo(cl.Resource))
		}
	}
	if !named {
		return
	}
	if c.s.Lock.Fencing == "cas" {
		c.errorf(dot(keyLock, keyFencing), "%s: cas keeps one stamp for every resource; clients' %s cannot be combined with it", dot(keyLock, keyFencing), keyResource)
	}
	if r := c.s.Resource; r != nil && r.Idempotency != "none" {
		c.errorf(dot(keyResource, keyIdempotency), "%s keeps one set of job keys for every resource; clients' %s cannot be combined with it",
			dot(keyResource, keyIdempotency), keyResource)
	}
}
