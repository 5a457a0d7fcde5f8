package model

import (
	"strconv"

	"github.com/lockstep-sim/lockstep/model/redis"
)

// MasterName is the name of master k (numbered from 1): redis-K.
func MasterName(k int) string { return redis.MasterName(k) }

// ReplicaName is the name of master k's replica j: redis-K-rJ.
func ReplicaName(k, j int) string { return redis.ReplicaName(k, j) }

// SentinelName is the name of sentinel k: sentinel-K.
func SentinelName(k int) string { return redis.SentinelName(k) }

// holdToken is the token of a client's h-th hold: NAME-h. Built in one
// allocation (name+"-"+strconv.Itoa(h) takes two once h passes 99).
func holdToken(name string, h int) string {
	var buf [64]byte
	b := append(append(buf[:0], name...), '-')
	return string(strconv.AppendInt(b, int64(h), 10))
}
