package modelref

import (
	"fmt"
	"os"
	"path/filepath"
)

// DirEnv names the environment variable that overrides the models directory.
const DirEnv = "SVC_MODELS"

// DefaultDir is where models fetched by reference are kept: $SVC_MODELS,
// else svc/models under the user's cache directory (~/.cache on Linux).
func DefaultDir() (string, error) {
	if d := os.Getenv(DirEnv); d != "" {
		return d, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("models directory: set %s: %w", DirEnv, err)
	}
	return filepath.Join(c, "svc", "models"), nil
}
