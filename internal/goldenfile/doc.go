// Package goldenfile compares the outputs of tests with their golden files.
//
// A golden file holds the bytes a build that rounds every floating-point
// step writes, and such a build (amd64 as Go builds it by default) must
// write them exactly. Go lets a compiler fuse a multiply and an add into
// one instruction that rounds once (the Go specification, "Floating-point
// operators"), and it does on arm64 and on amd64 built with GOAMD64=v3 or
// above: there the last digits of a computed value can differ. On such a
// build Equal holds text to its golden file but for numbers that agree to
// within a part in 10^9 or one unit of the golden file's last digit, and
// a PNG image to its size alone; everything else must still match.
//
// It is for tests alone, and imports nothing of this project.
package goldenfile
