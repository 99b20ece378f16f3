// Package k8s holds no code: it is the module that checks the Kubernetes
// manifests beside it (an Indexed Job of shards, a merge Job and their
// shared volume) by decoding them strictly into the Kubernetes API types
// and by running their commands with the completion index set by hand; and
// wait-shards.sh, the wait for the shards Job to end, against a stand-in
// for kubectl.
//
// It is a module of its own so that the simulator's go.mod never depends on
// the Kubernetes API packages: the simulator speaks to no batch engine.
package k8s
