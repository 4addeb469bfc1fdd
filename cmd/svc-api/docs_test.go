package main

import (
	"testing"

	"svc/cmd/internal/clidoc"
)

// TestDocs fails when docs/cli no longer matches the program; -update
// regenerates it.
func TestDocs(t *testing.T) { clidoc.Check(t, newRootCmd()) }
