package faults

import (
	"slices"

	"github.com/lockstep-sim/lockstep/model"
)

// Names are the processes of a world that a fault may strike, each list in
// the world's order.
type Names struct {
	Clients, Masters, Replicas, Sentinels []string
	// Resource is the protected resource's process ("resource") where the
	// network faults may target it; empty: they may not (explore's worlds,
	// whose random schedules stay as they were).
	Resource []string
}

// NamesFor lists the processes of a world with these clients and nodes
// masters, each with replicas replicas, and sentinels sentinels.
func NamesFor(clients []string, nodes, replicas, sentinels int) Names {
	w := Names{Clients: slices.Clone(clients)}
	for k := 1; k <= nodes; k++ {
		w.Masters = append(w.Masters, model.MasterName(k))
		for j := 1; j <= replicas; j++ {
			w.Replicas = append(w.Replicas, model.ReplicaName(k, j))
		}
	}
	for k := 1; k <= sentinels; k++ {
		w.Sentinels = append(w.Sentinels, model.SentinelName(k))
	}
	return w
}

// Nodes is every Redis node: the masters, then the replicas.
func (w Names) Nodes() []string { return slices.Concat(w.Masters, w.Replicas) }

// All is every client and node: what most faults may strike.
func (w Names) All() []string { return slices.Concat(w.Clients, w.Masters, w.Replicas) }

// Net is every process on the network, sentinels included: what network
// faults (partition, isolate, slow) may cut off.
func (w Names) Net() []string { return slices.Concat(w.All(), w.Sentinels) }

// NetTarget reports whether a network fault (one with OnSentinel: partition,
// isolate, slow) may target name outside Net: the resource, where the world
// lets it. Messages that list the known processes keep to Net, so they read
// as they did before the resource became a target.
func (w Names) NetTarget(name string) bool { return slices.Contains(w.Resource, name) }

// IsNode reports whether name is a Redis node.
func (w Names) IsNode(name string) bool {
	return slices.Contains(w.Masters, name) || slices.Contains(w.Replicas, name)
}

// Target lists for the kinds' Targets.
func clients(w Names) []string { return w.Clients }
func masters(w Names) []string { return w.Masters }
func all(w Names) []string     { return w.All() }
func net(w Names) []string     { return w.Net() }

// needAll is how the validator describes all's processes.
const needAll = "a client or a Redis node (a sentinel only takes network faults)"
