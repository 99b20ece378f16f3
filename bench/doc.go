// Package bench holds hammersim's end-to-end benchmarks and the peer
// baseline they are compared with. Run them with bench/run.sh, which also
// installs the peer's dependencies; RESULTS.md records the figures.
//
// Every speed claim here is a ratio of two timings taken in the same run,
// because the machines these run on are shared and noisy.
package bench
