package coordinator

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"svc/coordinator/audit"
	"svc/coordinator/store"
)

// Firewall is the enrolment port's state: closed unless opened, for some
// source networks, until a deadline.
type Firewall struct {
	Open  bool      `json:"open"`
	From  []string  `json:"from,omitempty"`
	Until time.Time `json:"until,omitzero"`
	By    string    `json:"by,omitempty"`
}

// Allows says whether a connection from addr may enrol at now.
func (f Firewall) Allows(addr netip.Addr, now time.Time) bool {
	if !f.Open || (!f.Until.IsZero() && !now.Before(f.Until)) {
		return false
	}
	addr = addr.Unmap()
	for _, s := range f.From {
		if p, err := netip.ParsePrefix(s); err == nil && p.Contains(addr) {
			return true
		}
	}
	return false
}

// FirewallArgs are firewall open's arguments.
type FirewallArgs struct {
	From []string `json:"from,omitempty"`
	For  string   `json:"for,omitempty"`
	// NFTables asks status for the matching host rules.
	NFTables bool `json:"nftables,omitempty"`
}

// DefaultFirewallFor is how long firewall open lasts without --for.
const DefaultFirewallFor = time.Hour

// CurrentFirewall reads the enrolment firewall.
func (d *Daemon) CurrentFirewall() Firewall {
	var f Firewall
	_ = d.st.View(func(tx *bolt.Tx) error {
		_, err := store.Get(tx, store.Meta, "firewall", &f)
		return err
	})
	return f
}

func (d *Daemon) cmdFirewallOpen(_ context.Context, c *Call) error {
	var a FirewallArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	if len(a.From) == 0 {
		a.From = []string{"0.0.0.0/0", "::/0"}
	}
	for i, s := range a.From {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			ip, err2 := netip.ParseAddr(s)
			if err2 != nil {
				return fmt.Errorf("--from %q is not a CIDR (10.0.0.0/24) nor an address", s)
			}
			p = netip.PrefixFrom(ip, ip.BitLen())
		}
		a.From[i] = p.Masked().String()
	}
	dur := DefaultFirewallFor
	if a.For != "" {
		v, err := time.ParseDuration(a.For)
		if err != nil || v < time.Second || v > 7*24*time.Hour {
			return fmt.Errorf("--for %q must be a duration from 1s to 168h", a.For)
		}
		dur = v
	}
	f := Firewall{Open: true, From: a.From, Until: d.Now().Add(dur).UTC(), By: c.Actor}
	c.Target(strings.Join(f.From, ","))
	if err := c.Commit(func(tx *bolt.Tx) error { return store.Put(tx, store.Meta, "firewall", f) },
		audit.Record{Detail: "until " + f.Until.Format(time.RFC3339)}); err != nil {
		return err
	}
	c.Printf("enrolment open from %s until %s (%s)\n", strings.Join(f.From, ", "), f.Until.Format(time.RFC3339), d.EnrolAddr())
	return nil
}

func (d *Daemon) cmdFirewallClose(_ context.Context, c *Call) error {
	if err := c.Commit(func(tx *bolt.Tx) error { return store.Put(tx, store.Meta, "firewall", Firewall{By: c.Actor}) },
		audit.Record{}); err != nil {
		return err
	}
	c.Printf("enrolment closed\n")
	return nil
}

func (d *Daemon) cmdFirewallStatus(_ context.Context, c *Call) error {
	var a FirewallArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	f := d.CurrentFirewall()
	now := d.Now()
	if f.Open && now.Before(f.Until) {
		c.Printf("enrolment: open from %s until %s (%s left), opened by %s\n", strings.Join(f.From, ", "),
			f.Until.Format(time.RFC3339), f.Until.Sub(now).Round(time.Second), f.By)
	} else {
		c.Printf("enrolment: closed\n")
	}
	c.Printf("enrolment port: %s\nswarm port: %d (members with a valid certificate only)\n", d.EnrolAddr(), d.Cfg.SwarmPort)
	if a.NFTables {
		c.Printf("\n%s", d.nftables(f, now))
	}
	return nil
}

// nftables renders host rules matching the programs' own gating: the
// enrolment port only from the open networks while open, the swarm port
// from anywhere (certificates decide there).
func (d *Daemon) nftables(f Firewall, now time.Time) string {
	port := d.Cfg.EnrolPort
	if p := d.enrolPort(); p != 0 {
		port = p
	}
	var b strings.Builder
	b.WriteString("table inet svc_coordinator {\n\tchain input {\n\t\ttype filter hook input priority 0; policy accept;\n")
	if f.Open && now.Before(f.Until) {
		secs := int(f.Until.Sub(now).Seconds())
		for _, s := range f.From {
			fam := "ip"
			if p, err := netip.ParsePrefix(s); err == nil && p.Addr().Is6() {
				fam = "ip6"
			}
			fmt.Fprintf(&b, "\t\t%s saddr %s tcp dport %d accept comment \"svc enrolment, %ds left\"\n", fam, s, port, secs)
		}
	}
	fmt.Fprintf(&b, "\t\ttcp dport %d drop comment \"svc enrolment closed\"\n\t}\n}\n", port)
	return b.String()
}

// hostAddr extracts the IP of a "host:port" or returns the zero Addr.
func hostAddr(s string) netip.Addr {
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		host = s
	}
	a, _ := netip.ParseAddr(host)
	return a
}
