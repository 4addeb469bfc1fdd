// Package cli is the exit-code contract shared by every svc program (svc,
// svc-coordinator, svc-node-agent, svc-api), so that scripts and service
// managers can tell the outcomes apart the same way for all of them:
//
//	0   ExitOK                 the command did what was asked
//	1   ExitRefused            a refusal the user can act on; the reason is on stderr
//	2   ExitUsage              a wrong command line; the reason and the usage are on stderr
//	77  ExitCertificateExpired the node agent's certificate expired (systemd:
//	                           RestartPreventExitStatus=77, restarting cannot help)
//
// A program builds its cobra tree and hands it to Main (or Run, in tests):
//
//	func main() { cli.Main(newRootCmd()) }
//
// Commands return errors; the error decides the code. Usagef (or
// &UsageError{Err: err}) marks a wrong command line; WithCode gives any
// other code, and CertificateExpired the agent's 77. Every other error is a
// refusal. Cobra's own command-line errors — unknown flags and commands,
// bad flag values, wrong argument counts, missing required flags — are
// turned into usage errors by Run, so commands never handle them.
package cli
