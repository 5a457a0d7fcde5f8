package redis

import "fmt"

// The names of a world's Redis processes, numbered from 1 (the scenario
// format's spelling): masters redis-K, their replicas redis-K-rJ, sentinels
// sentinel-K. Everything that lists a world's processes without building it
// (the validator, explore) calls these.

// MasterName is the name of master k.
func MasterName(k int) string { return fmt.Sprintf("redis-%d", k) }

// ReplicaName is the name of master k's replica j.
func ReplicaName(k, j int) string { return fmt.Sprintf("redis-%d-r%d", k, j) }

// SentinelName is the name of sentinel k.
func SentinelName(k int) string { return fmt.Sprintf("sentinel-%d", k) }
