// Package web is the server behind `simulate serve`: one page, embedded in
// the binary, and the small HTTP API it uses (documented in docs/web.md).
//
// The server is a thin layer. It knows no game and computes no statistic:
// package main hands it an [Engine] whose functions are the command line's
// own run, compare and dice paths, so that an answer is the same bytes the
// command line prints for the same scenario, seed and trials. The server
// adds only what a listening socket needs, which is why it sits in its own
// package rather than among the command's files: limits on bodies, trials
// and concurrent runs, Host and Origin checks, progress events and
// cancellation.
//
// Safety rules: it never opens a path a request names (a request's file
// name only labels the text it sent, in error positions and stamps); it
// answers only requests whose Host is an IP address, localhost or a name
// it was told to serve (no DNS rebinding); it refuses cross-origin POSTs;
// a run stops when its client goes away (watched on its connection, with
// ConnContext), and no run takes longer than MaxRunTime. A server that
// stops cancels its runs first (Server.CancelRuns), and each answers with
// its partial results.
//
// Of the project it imports only scenarios, for the registry type and the
// built-in library (layers_test.go holds it to that).
//
// A Server is safe for concurrent use by many requests.
package web
