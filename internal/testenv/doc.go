// Package testenv finds the shared fixtures (../shared beside the repository,
// or $SVC_SHARED) for tests and benchmarks. A missing fixture fails the test
// loudly: fixtures are part of the contract, never an optional extra.
package testenv
