package models

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"svc/shards/gguf"
	"svc/shards/lora"
)

// Adapters. A LoRA adapter served with a model is imported beside it, as
// adapters/MODEL-NAME.gguf of the models directory (out of Scan's way),
// with a manifest of kind slice.KindAdapter cached as for models; the slice
// server finds it by its manifest's hash like a model.

// adaptersDir is the adapters' directory under the models directory.
const adaptersDir = "adapters"

// isAdapterPath says whether a library path is an adapter's.
func isAdapterPath(p string) bool { return filepath.Base(filepath.Dir(p)) == adaptersDir }

// ImportAdapter checks the adapter file src against the model base
// (lora.CheckBase: architecture and every adapted tensor's shape), copies
// it into the library beside the model and returns its entry, named
// "MODEL-NAME".
func (l *Library) ImportAdapter(_ context.Context, base *Entry, name, src string) (*Entry, error) {
	a, err := lora.Open(src)
	if err != nil {
		return nil, fmt.Errorf("models: adapter %s: %w", name, err)
	}
	defer a.Close()
	gf, err := gguf.ParseHeader(base.Manifest.Header)
	if err != nil {
		return nil, fmt.Errorf("models: %s: %w", base.Name, err)
	}
	if err := a.CheckBase(base.Manifest.Config().Arch, gf); err != nil {
		return nil, fmt.Errorf("models: adapter %s (%s) does not fit model %s: %w", name, src, base.Name, err)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	dir := filepath.Join(l.dir, adaptersDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	full := base.Name + "-" + name
	dst := filepath.Join(dir, full+".gguf")
	if abs != dst {
		// Serving the model again with another file of that name replaces
		// the adapter.
		if dt, err := os.Stat(dst); err == nil && !os.SameFile(st, dt) && (dt.Size() != st.Size() || !sameBytes(abs, dst)) {
			if err := os.Remove(dst); err != nil {
				return nil, fmt.Errorf("models: %w", err)
			}
		}
		if err := l.place(abs, dst, st); err != nil {
			return nil, err
		}
	}
	return l.entry(adaptersDir+"/"+full, dst)
}
