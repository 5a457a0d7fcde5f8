package build

import (
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/redis"
	"github.com/lockstep-sim/lockstep/scenario"
)

// redisSideConfig fills what the mitigations need in the model's config.
func redisSideConfig(s *scenario.Scenario, cfg *model.Config, l scenario.Lock) {
	cfg.Nodes.MinReplicasToWrite = s.Redis.MinReplicasToWrite
	cfg.Nodes.MinReplicasMaxLag = s.Redis.MinReplicasMaxLag
	if cfg.Nodes.MinReplicasToWrite > 0 && cfg.Nodes.MinReplicasMaxLag == 0 {
		cfg.Nodes.MinReplicasMaxLag = redis.DefaultMinReplicasMaxLag
	}
	if w := l.WaitReplicas; w != nil {
		cfg.Lock.WaitReplicas = &model.WaitReplicasConfig{Replicas: w.Replicas, Timeout: w.Timeout}
	}
	cfg.Nodes.MaxmemoryPolicy = s.Redis.MaxmemoryPolicy
	cfg.Nodes.Version = s.Redis.Version
	cfg.Nodes.ReplicaAcks = cfg.Nodes.MinReplicasToWrite > 0 || cfg.Lock.WaitReplicas != nil
}
