package coordinator

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Default paths of the managed variant; each has a flag and an environment
// override in svc-coordinator.
const (
	DefaultConfigPath = "/etc/svc/coordinator.toml"
	DefaultStateDir   = "/var/lib/svc-coordinator"
	DefaultCACertPath = "/etc/svc/ca.crt"
	DefaultModelsDir  = "/var/lib/svc-models"
)

// Config is coordinator.toml.
type Config struct {
	// Endpoint is the host:port machines reach the coordinator's swarm
	// port at (what its certificate names); default 127.0.0.1:SwarmPort.
	Endpoint string `toml:"endpoint"`
	// Listen is the address both ports bind (default 0.0.0.0).
	Listen string `toml:"listen"`
	// SwarmPort is the libp2p port of the swarm (members, roster, DHT).
	SwarmPort int `toml:"swarm_port"`
	// EnrolPort is the libp2p port of enrolment, closed unless the
	// firewall is opened.
	EnrolPort int    `toml:"enrol_port"`
	StateDir  string `toml:"state_dir"`
	CACert    string `toml:"ca_cert"`
	ModelsDir string `toml:"models_dir"`
	// VendorKeys are PEM public key files of licence vendors trusted in
	// addition to the built-in one.
	VendorKeys []string `toml:"vendor_keys"`
	// TokenTTL is the default lifetime of an enrolment token.
	TokenTTL Duration `toml:"token_ttl"`
	// CertificateLifetime is how long member certificates are valid.
	CertificateLifetime Duration `toml:"certificate_lifetime"`
	// RosterInterval is how often members fetch the roster when no push
	// reached them.
	RosterInterval Duration `toml:"roster_interval"`
	Pool           Pool     `toml:"pool"`
}

// Pool holds the defaults of model placement.
type Pool struct {
	// Replicas is model serve's default --replicas.
	Replicas int `toml:"replicas"`
	// MemoryReserve is kept free on each machine (bytes, or "512MiB").
	MemoryReserve string `toml:"memory_reserve"`
}

// Duration is a time.Duration written as "24h" in TOML.
type Duration struct{ time.Duration }

// UnmarshalText reads "24h", "90s".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("duration %s is negative", v)
	}
	d.Duration = v
	return nil
}

// MarshalText writes the duration as time.Duration.String.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.Duration.String()), nil }

// DefaultConfig is what an absent coordinator.toml means.
func DefaultConfig() Config {
	return Config{
		Listen:              "0.0.0.0",
		SwarmPort:           7400,
		EnrolPort:           7401,
		StateDir:            DefaultStateDir,
		CACert:              DefaultCACertPath,
		ModelsDir:           DefaultModelsDir,
		TokenTTL:            Duration{24 * time.Hour},
		CertificateLifetime: Duration{365 * 24 * time.Hour},
		RosterInterval:      Duration{time.Second},
		Pool:                Pool{Replicas: 1},
	}
}

// LoadConfig reads path over the defaults. A missing file is an error
// only when required (the operator named it).
func LoadConfig(path string, required bool) (Config, error) {
	cfg := DefaultConfig()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !required {
		return cfg, cfg.check(path)
	}
	if err != nil {
		return cfg, fmt.Errorf("configuration: %w", err)
	}
	md, err := toml.Decode(string(data), &cfg)
	if err != nil {
		return cfg, fmt.Errorf("configuration %s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return cfg, fmt.Errorf("configuration %s: unknown key %s", path, strings.Join(keys, ", "))
	}
	return cfg, cfg.check(path)
}

func (c *Config) check(path string) error {
	if c.SwarmPort < 0 || c.SwarmPort > 65535 || c.EnrolPort < 0 || c.EnrolPort > 65535 {
		return fmt.Errorf("configuration %s: swarm_port and enrol_port must be 0 to 65535", path)
	}
	if c.SwarmPort != 0 && c.SwarmPort == c.EnrolPort {
		return fmt.Errorf("configuration %s: swarm_port and enrol_port must differ (enrolment has its own port)", path)
	}
	if net.ParseIP(c.Listen) == nil {
		return fmt.Errorf("configuration %s: listen %q is not an IP address", path, c.Listen)
	}
	if c.Endpoint != "" {
		if _, _, err := net.SplitHostPort(c.Endpoint); err != nil {
			return fmt.Errorf("configuration %s: endpoint %q: %v", path, c.Endpoint, err)
		}
	}
	if c.Pool.Replicas < 1 {
		return fmt.Errorf("configuration %s: pool.replicas must be at least 1", path)
	}
	if c.StateDir == "" {
		return fmt.Errorf("configuration %s: state_dir is empty", path)
	}
	if c.CertificateLifetime.Duration < time.Minute {
		return fmt.Errorf("configuration %s: certificate_lifetime must be at least 1m", path)
	}
	if c.RosterInterval.Duration <= 0 {
		c.RosterInterval.Duration = time.Second
	}
	return nil
}

// DBPath is the state database.
func (c Config) DBPath() string { return filepath.Join(c.StateDir, "state.db") }

// SocketPath is the admin socket.
func (c Config) SocketPath() string { return filepath.Join(c.StateDir, "admin.sock") }

// KeyPath is the coordinator's libp2p key.
func (c Config) KeyPath() string { return filepath.Join(c.StateDir, "node.key") }

// SwarmEndpoint is the host:port the coordinator's certificate names.
func (c Config) SwarmEndpoint() string {
	if c.Endpoint != "" {
		return c.Endpoint
	}
	host := c.Listen
	if host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, fmt.Sprint(c.SwarmPort))
}
