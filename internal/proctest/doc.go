// Package proctest runs real programs of this module in tests: it builds a
// program once per test binary, starts it with its arguments, environment and
// working directory, waits for what it prints (a line, a multiaddr, a URL),
// freezes and thaws it (SIGSTOP/SIGCONT), kills it, and shows the end of its
// output when the test fails. Run covers one-shot commands (exit code, stdout,
// stderr). Every wait is bounded by a context, and every process a test starts
// is ended at the test's cleanup, failed or not.
//
// A test package that builds programs calls Main from its TestMain, so that the
// binaries are removed when the test binary ends:
//
//	func TestMain(m *testing.M) { proctest.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		bin := proctest.Build(t, "./cmd/svc") // once per test binary
//		node := proctest.Start(t, proctest.Cmd{Path: bin, Name: "node 0:3",
//			Args: []string{"node", "--model", path, "--listen", "/ip4/127.0.0.1/tcp/0"}})
//		addr, err := node.WaitMultiaddr(t.Context())
//		...
//		res := proctest.Run(t.Context(), proctest.Cmd{Path: bin, Args: []string{"serve"}})
//		if res.Code != 2 { ... }
//	}
//
// Output is kept line by line (stdout and stderr interleaved as they arrive,
// the oldest lines dropped past Cmd.MaxLines), so waits see everything printed
// since the start: WaitLine/WaitMatch return the first matching line, never
// miss one printed before the wait began, and fail early, with the process's
// last lines, when it exits first. Pause waits until every thread of the
// process is really stopped (signals are asynchronous), so a test that
// freezes a process to hold a step still does not race its last instructions.
//
// Setting SVC_TEST_LOGDIR to a directory keeps the whole output of every
// process there (one file each), failed test or not.
//
// Build compiles with -race when the test binary itself was built with it.
// Scrape and MetricSum read a Prometheus text page (a process's /metrics).
//
// The package depends only on the standard library.
package proctest
