package apimember

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// DefaultEnvPath is the API's configuration file.
const DefaultEnvPath = "/etc/svc/api.env"

// Config is /etc/svc/api.env: KEY=VALUE lines (the format of systemd's
// EnvironmentFile, which the unit also hands the process), every key
// overridable by the process environment. Unknown SVC_API_ keys are an
// error: a misspelt limit must not silently keep its default.
type Config struct {
	// StateDir holds the member's key, certificates, roster, the key
	// cache and (by default) the journal.
	StateDir string
	// Coordinator is the coordinator's swarm multiaddr (…/p2p/ID); the
	// roster names it too once enrolled.
	Coordinator string
	// Listen is the HTTPS address (default :8443).
	Listen string
	// Hosts are the names and addresses the TLS certificate is for.
	Hosts []string
	// SwarmListen is the libp2p listen multiaddr.
	SwarmListen string
	// MetricsListen is the plain HTTP address of /metrics ("" = none):
	// keep it private, its series name the keys.
	MetricsListen string
	// PlainListen, when set, also serves the local variant (no keys, no
	// TLS) on a loopback address, to measure what TLS and keys cost.
	PlainListen string
	// Journal is the JSON-lines journal of refused requests.
	Journal string
	// JournalMaxBytes is the size past which the journal is rotated, and
	// JournalKeep how many rotated files are kept (journal.go).
	JournalMaxBytes int64
	JournalKeep     int
	// GenerationLimit bounds a generation (504 timeout past it).
	GenerationLimit time.Duration
	// MaxGenerations bounds concurrent generations (429 capacity beyond).
	MaxGenerations int
	// MaxBodyBytes bounds a request body.
	MaxBodyBytes int
	// OfflineGrace is how long known keys are served while the coordinator
	// cannot be reached.
	OfflineGrace time.Duration
	// OwnedBy is the owned_by of the model list.
	OwnedBy string
}

// Defaults of the configuration.
const (
	DefaultStateDir        = "/var/lib/svc-api"
	DefaultListen          = ":8443"
	DefaultSwarmListen     = "/ip4/0.0.0.0/tcp/0"
	DefaultMetricsListen   = "127.0.0.1:9464"
	DefaultGenerationLimit = 5 * time.Minute
	DefaultMaxGenerations  = 64
	DefaultMaxBodyBytes    = 4 << 20
	DefaultOfflineGrace    = 15 * time.Minute
	DefaultJournalMaxMB    = 100
	DefaultJournalKeep     = 5
)

// setting is one key of api.env.
type setting struct {
	doc string
	set func(c *Config, v string) error
}

var settings = map[string]setting{
	"SVC_API_STATE_DIR":        {"state directory (" + DefaultStateDir + ")", func(c *Config, v string) error { c.StateDir = v; return nil }},
	"SVC_API_COORDINATOR":      {"the coordinator's swarm multiaddr (/ip4/…/tcp/…/p2p/…)", func(c *Config, v string) error { c.Coordinator = v; return nil }},
	"SVC_API_LISTEN":           {"HTTPS address (" + DefaultListen + ")", func(c *Config, v string) error { return hostPort(&c.Listen, v) }},
	"SVC_API_HOSTS":            {"host names and addresses of the TLS certificate, comma-separated", setHosts},
	"SVC_API_SWARM_LISTEN":     {"libp2p listen multiaddr (" + DefaultSwarmListen + ")", func(c *Config, v string) error { c.SwarmListen = v; return nil }},
	"SVC_API_METRICS_LISTEN":   {"plain HTTP address of /metrics, empty for none (" + DefaultMetricsListen + ")", func(c *Config, v string) error { return optHostPort(&c.MetricsListen, v) }},
	"SVC_API_PLAIN_LISTEN":     {"loopback address serving the local variant without TLS or keys, for measurement (empty: none)", setPlain},
	"SVC_API_JOURNAL":          {"JSON-lines journal of refused requests (STATE_DIR/journal.jsonl)", func(c *Config, v string) error { c.Journal = v; return nil }},
	"SVC_API_JOURNAL_MAX_MB":   {"size in MiB past which the journal is rotated to JOURNAL.1, JOURNAL.2, … (" + strconv.Itoa(DefaultJournalMaxMB) + ")", setJournalMax},
	"SVC_API_JOURNAL_KEEP":     {"rotated journal files kept, 0 for none (" + strconv.Itoa(DefaultJournalKeep) + ")", setJournalKeep},
	"SVC_API_GENERATION_LIMIT": {"longest generation (" + DefaultGenerationLimit.String() + ")", func(c *Config, v string) error { return duration(&c.GenerationLimit, v) }},
	"SVC_API_MAX_GENERATIONS":  {"concurrent generations, a completions batch counting one per prompt (" + strconv.Itoa(DefaultMaxGenerations) + ")", func(c *Config, v string) error { return positive(&c.MaxGenerations, v) }},
	"SVC_API_MAX_BODY":         {"largest request body in bytes (" + strconv.Itoa(DefaultMaxBodyBytes) + ")", func(c *Config, v string) error { return positive(&c.MaxBodyBytes, v) }},
	"SVC_API_OFFLINE_GRACE":    {"how long known keys are served while the coordinator is away (" + DefaultOfflineGrace.String() + ")", func(c *Config, v string) error { return duration(&c.OfflineGrace, v) }},
	"SVC_API_OWNED_BY":         {"owned_by of the model list (svc)", func(c *Config, v string) error { c.OwnedBy = v; return nil }},
}

// Keys lists the keys of api.env with their meaning, for the command
// reference.
func Keys() string {
	names := make([]string, 0, len(settings))
	for k := range settings {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "  %-26s %s\n", k, settings[k].doc)
	}
	return b.String()
}

// DefaultConfig is an empty api.env.
func DefaultConfig() Config {
	return Config{StateDir: DefaultStateDir, Listen: DefaultListen, SwarmListen: DefaultSwarmListen,
		MetricsListen: DefaultMetricsListen, GenerationLimit: DefaultGenerationLimit,
		MaxGenerations: DefaultMaxGenerations, MaxBodyBytes: DefaultMaxBodyBytes, OfflineGrace: DefaultOfflineGrace,
		JournalMaxBytes: DefaultJournalMaxMB << 20, JournalKeep: DefaultJournalKeep}
}

// LoadConfig reads path (a missing file is an error only when required)
// and then the process environment, which overrides the file key by key.
func LoadConfig(path string, required bool, environ []string) (Config, error) {
	c := DefaultConfig()
	vals := map[string]string{}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !required:
	case err != nil:
		return c, fmt.Errorf("api configuration: %w", err)
	default:
		if vals, err = parseEnvFile(path, data); err != nil {
			return c, err
		}
	}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.HasPrefix(k, "SVC_API_") {
			if _, known := settings[k]; !known {
				return c, fmt.Errorf("environment: unknown key %s (known: %s)", k, knownKeys())
			}
			vals[k] = v
		}
	}
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := settings[k].set(&c, strings.TrimSpace(vals[k])); err != nil {
			return c, fmt.Errorf("%s: %s: %w", path, k, err)
		}
	}
	if c.Journal == "" {
		c.Journal = filepath.Join(c.StateDir, "journal.jsonl")
	}
	return c, nil
}

func knownKeys() string {
	names := make([]string, 0, len(settings))
	for k := range settings {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// parseEnvFile reads KEY=VALUE lines: blank lines and # comments are
// skipped, a value may be quoted with " or '. Every key must be known.
func parseEnvFile(path string, data []byte) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("%s:%d: want KEY=VALUE, got %q", path, n, line)
		}
		if _, known := settings[k]; !known {
			return nil, fmt.Errorf("%s:%d: unknown key %s (known: %s)", path, n, k, knownKeys())
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		out[k] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

func hostPort(dst *string, v string) error {
	if _, _, err := net.SplitHostPort(v); err != nil {
		return fmt.Errorf("want HOST:PORT, got %q", v)
	}
	*dst = v
	return nil
}

func optHostPort(dst *string, v string) error {
	if v == "" {
		*dst = ""
		return nil
	}
	return hostPort(dst, v)
}

func setPlain(c *Config, v string) error {
	if v == "" {
		c.PlainListen = ""
		return nil
	}
	host, _, err := net.SplitHostPort(v)
	if err != nil {
		return fmt.Errorf("want HOST:PORT, got %q", v)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q: the plain listener serves without keys, so only a loopback address is allowed", v)
	}
	c.PlainListen = v
	return nil
}

func setHosts(c *Config, v string) error {
	c.Hosts = nil
	for _, h := range strings.Split(v, ",") {
		if h = strings.TrimSpace(h); h != "" {
			c.Hosts = append(c.Hosts, h)
		}
	}
	return nil
}

func duration(dst *time.Duration, v string) error {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("want a positive duration such as 5m, got %q", v)
	}
	*dst = d
	return nil
}

func setJournalMax(c *Config, v string) error {
	var mb int
	if err := positive(&mb, v); err != nil {
		return err
	}
	if mb > 1<<20 {
		return fmt.Errorf("want at most %d MiB, got %q", 1<<20, v)
	}
	c.JournalMaxBytes = int64(mb) << 20
	return nil
}

func setJournalKeep(c *Config, v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 1000 {
		return fmt.Errorf("want a number of files from 0 to 1000, got %q", v)
	}
	c.JournalKeep = n
	return nil
}

func positive(dst *int, v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return fmt.Errorf("want a positive integer, got %q", v)
	}
	*dst = n
	return nil
}
