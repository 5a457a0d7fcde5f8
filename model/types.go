package model

import (
	"github.com/lockstep-sim/lockstep/model/redis"
	"github.com/lockstep-sim/lockstep/model/store"
)

// The store's types, as the node's API speaks them.
type (
	// Effect is the state of one key after a write (see store.Effect).
	Effect = store.Effect
	// Expiry is a key a clock fault made expire (see store.Expiry).
	Expiry = store.Expiry
	// KeyInfo is one key as a node holds it, for display (see store.KeyInfo).
	KeyInfo = store.KeyInfo
	// RedisError is an error reply from Redis (see store.RedisError).
	RedisError = store.RedisError
)

// Epoch is the instant a node's wall reading 0 stands for (see store.Epoch).
var Epoch = store.Epoch

// The Redis side's types (package redis).
type (
	// Node is a simulated Redis server (see redis.Node).
	Node = redis.Node
	// NodeConfig describes one node (see redis.NodeConfig).
	NodeConfig = redis.NodeConfig
	// Shard is one master and its replicas (see redis.Shard).
	Shard = redis.Shard
	// NodesConfig describes the Redis deployment (see redis.Config).
	NodesConfig = redis.Config
)

// Persistence modes of NodesConfig.Persistence (redis.persistence).
const (
	PersistNone     = redis.PersistNone
	PersistEverysec = redis.PersistEverysec
	PersistAlways   = redis.PersistAlways
)

// ErrDown is what a crashed node answers (see redis.ErrDown).
var ErrDown = redis.ErrDown
