package apimember

import "path/filepath"

// Files names the state directory's files. The member's identity (node.key,
// member.crt, ca.crt, roster) is laid out as the node agent's is.
type Files struct{ Dir string }

func (f Files) Key() string      { return filepath.Join(f.Dir, "node.key") }
func (f Files) Cert() string     { return filepath.Join(f.Dir, "member.crt") }
func (f Files) CA() string       { return filepath.Join(f.Dir, "ca.crt") }
func (f Files) Roster() string   { return filepath.Join(f.Dir, "roster") }
func (f Files) TLSKey() string   { return filepath.Join(f.Dir, "tls.key") }
func (f Files) TLSCert() string  { return filepath.Join(f.Dir, "tls.crt") }
func (f Files) KeyCache() string { return filepath.Join(f.Dir, "apikeys.json") }
