package modelref

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Entry is one model in the models directory.
type Entry struct {
	// Ref is the reference it was fetched by ("" for a file put there
	// otherwise, such as the built-in demo).
	Ref     string
	Path    string
	Size    int64
	SHA256  string // "" when not fetched by reference
	Fetched time.Time
}

// List returns every model in dir, by path. Partial transfers are not
// models and are left out. A missing dir holds no models.
func List(dir string) ([]Entry, error) {
	var out []Entry
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && path == dir {
				return fs.SkipAll
			}
			return err
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(path, ".gguf") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		e := Entry{Path: path, Size: info.Size(), Fetched: info.ModTime()}
		if b, err := os.ReadFile(path + ".json"); err == nil {
			var rec record
			if json.Unmarshal(b, &rec) == nil {
				e.Ref, e.SHA256, e.Fetched = rec.Ref, rec.SHA256, rec.Fetched
			}
		}
		out = append(out, e)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}
