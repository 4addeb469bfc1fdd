package x86sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Assemble runs the Go assembler on the named .s files of dir (as package
// pkg, for linux/amd64) and returns the concatenated listings. It needs
// the go command on PATH: tests run where go test runs.
func Assemble(ctx context.Context, dir, pkg string, files ...string) (string, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", errors.New("x86sim: the go command is not on PATH (it assembles the kernels' listing)")
	}
	root, err := exec.CommandContext(ctx, goCmd, "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("x86sim: go env GOROOT: %w", err)
	}
	inc := filepath.Join(strings.TrimSpace(string(root)), "pkg", "include")
	tmp, err := os.MkdirTemp("", "x86sim-asm-")
	if err != nil {
		return "", fmt.Errorf("x86sim: %w", err)
	}
	defer os.RemoveAll(tmp)
	var all strings.Builder
	for _, f := range files {
		cmd := exec.CommandContext(ctx, goCmd, "tool", "asm", "-S", "-I", inc, "-I", dir, "-p", pkg,
			"-D", "GOOS_linux", "-D", "GOARCH_amd64", "-o", filepath.Join(tmp, "x.o"), f)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOARCH=amd64", "GOOS=linux")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("x86sim: go tool asm %s: %w: %s", f, err, strings.TrimSpace(errOut.String()))
		}
		// The listing goes to stdout; some versions print it on stderr.
		all.Write(out.Bytes())
		all.Write(errOut.Bytes())
	}
	return all.String(), nil
}

// Load assembles the named .s files of fsys (with every other file at its
// root, such as the headers they include, beside them in a temporary
// directory) as package pkg and parses the listing: how a test build gets
// the Program of its package's embedded assembly.
func Load(ctx context.Context, fsys fs.FS, pkg string, files ...string) (*Program, error) {
	dir, err := os.MkdirTemp("", "x86sim-src-")
	if err != nil {
		return nil, fmt.Errorf("x86sim: %w", err)
	}
	defer os.RemoveAll(dir)
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("x86sim: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("x86sim: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			return nil, fmt.Errorf("x86sim: %w", err)
		}
	}
	listing, err := Assemble(ctx, dir, pkg, files...)
	if err != nil {
		return nil, err
	}
	return Parse(listing)
}
