package model

import "github.com/lockstep-sim/lockstep/model/redis"

// MasterName is the name of master k (numbered from 1): redis-K.
func MasterName(k int) string { return redis.MasterName(k) }

// ReplicaName is the name of master k's replica j: redis-K-rJ.
func ReplicaName(k, j int) string { return redis.ReplicaName(k, j) }

// SentinelName is the name of sentinel k: sentinel-K.
func SentinelName(k int) string { return redis.SentinelName(k) }
