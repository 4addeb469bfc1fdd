package main

import "svc/cmd/internal/cli"

func main() { cli.Main(newRootCmd()) }
