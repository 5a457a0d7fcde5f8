package tracelog

// The message ids and argument names a trace reader uses
// (docs/trace-format.md, "Message ids"), spelled once.
const (
	IDCmd           = "cmd"
	IDAcquired      = "acquired"
	IDRenewed       = "renewed"
	IDReleased      = "released"
	IDDone          = "done"
	IDWrite         = "write"
	IDNodeCrashed   = "node-crashed"
	IDNodeRestarted = "node-restarted"
	IDReplicated    = "replicated"

	ArgClient     = "client"
	ArgNode       = "node"
	ArgToken      = "token"
	ArgFence      = "fence"
	ArgUntilMS    = "until_ms"
	ArgUntilNS    = "until_ns"
	ArgValue      = "value"
	ArgAccepted   = "accepted"
	ArgKey        = "key"
	ArgOwner      = "owner"
	ArgDeleted    = "deleted"
	ArgExpireAtNS = "expire_at_ns"
)
