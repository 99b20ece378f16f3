// Package sim is the Monte Carlo engine: it runs seeded trials of a [Model]
// on a pool of workers, aggregates what they observe into integer
// histograms, and turns those into estimates with confidence intervals.
// It knows nothing of any game: a model is whatever a scenario compiled.
//
// # Determinism
//
// A run is fully determined by (models, seed, trials). Trials are cut into
// chunks of [ChunkSize]; chunk k reads its random numbers from its own stream,
// dice.Rand seeded with (seed, k), whichever worker runs it. Workers claim
// chunks from an atomic counter and aggregate into histograms of their own;
// histograms hold integer counts, so merging them gives the same totals in
// any order. The same inputs therefore give identical results for any number
// of workers, and identical counts on any machine (the floating-point numbers
// worked out from them can differ in their last digits where the compiler
// fuses multiply-adds, as on arm64). A longer run extends a shorter one: its
// first trials are the shorter run's trials.
//
// Every model of a run reads the same chunk streams: chunk k of each model
// starts from the same random numbers. Models that read the dice the same
// way (the points of a charge sweep, which differ only in M) stay on the
// same dice throughout; models that read different amounts drift apart
// within a chunk. Config.Aligned gives every trial its own stream instead,
// so that trial i of every model starts from the same numbers: comparisons
// (simulate compare) run that way and are paired trial by trial, and
// Config.Batches keeps batch tallies for the batch-means standard errors of
// their differences.
//
// # Shards and partial results
//
// Because chunk k's stream depends on nothing but (seed, k), a run can be
// cut into shards, contiguous ranges of chunks ([Shard.Chunks]), run
// anywhere ([RunShard]) and written as a [Part]: the integer tallies of
// those chunks and a header naming the run ([PartHeader]), in the
// checksummed text format of [WritePart] and [ReadPart]. [Merge] adds the
// parts of one run, refusing parts of another run and chunks held twice
// (identical duplicates aside); [Part.Missing] names the shards still
// lacking. A run made in one piece is merged too ([WholeRun]), so reports
// are always rendered from merged tallies and never depend on the split.
//
// # Generator
//
// The generator is xoshiro256** (dice.Rand): 256 bits of state, period
// 2^256-1, passes BigCrush and PractRand, and costs a few multiply, shift
// and xor instructions per 64-bit output, all inlined. Seeding a chunk is
// four SplitMix64 steps, cheap enough to do per chunk, and SplitMix64 hashing
// of (seed, chunk) makes chunk streams unrelated. Alternatives measured in
// BenchmarkGenerators: math/rand/v2's PCG (same quality class, a 128-bit
// multiply per output, not inlined) and ChaCha8 (cryptographic strength we
// do not need, slower per output). D6 results, which dominate tabletop
// trials, are cut from each output twenty at a time without bias.
//
// # Concurrency and cancellation
//
// [RunAll] uses Config.Workers goroutines (GOMAXPROCS when zero). A trial
// runs on one goroutine with a generator and histograms it owns: the hot path
// takes no lock and, once its histograms have grown to the range observed,
// allocates nothing. A worker runs a chunk's trials in calls of as many as
// take about 20 ms (one call a chunk for trials of nanoseconds), and
// cancelling the context stops it before its next call, leaving its chunk
// unfinished: a chunk of trials of a millisecond would take seconds to run
// out. RunAll then returns what finished, with Partial set and the
// completed trials counted per model. Work is handed out chunk by chunk,
// chunk k of every model before any chunk k+1; a worker keeps each row of
// chunks (chunk k of every model) apart until no worker is on it or
// before it, and the run is cut to the rows before the first one a worker
// left unfinished or did not reach, so every model of a cancelled run
// holds the same first chunks, exactly what a run of that many trials
// holds, and
// models compared with one another stay paired. [RunGroups] runs several
// groups of models (the candidates of a comparison) as one such run.
//
// # Memory
//
// Aggregation streams: a model's histograms span the values observed, never
// the number of trials, so memory does not grow with trials.
//
// # Imports
//
// sim must never import a game: of mechanics it imports only mechanics/dice,
// for the generator, and never scenarios, reports or cmd
// (docs/architecture.md).
package sim
