package main

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// defaultEphemeralPorts is the size of Linux's default ephemeral port range
// (32768..60999): how many connections one source address can open to one server
// address, when /proc does not say otherwise.
const defaultEphemeralPorts = 60999 - 32768 + 1

// portHeadroom is the share of a source address's ephemeral ports we plan to use: the
// sockets of an earlier run stay in TIME_WAIT for a minute and still hold theirs.
const portHeadroom = 0.5

// minSources is the fewest source addresses used when the tool chooses: they cost
// nothing, and a run straight after a big one finds fresh ports.
const minSources = 4

// maxSources is how many 127.0.0.x source addresses there are to spread over
// (127.0.0.1 .. 127.0.0.254).
const maxSources = 254

// parseTargets splits a comma-separated list of host:port server addresses and refuses
// any that is not on this machine's loopback interface: this tool loads a server it can
// see fail, never someone else's. "localhost" becomes 127.0.0.1 (no name is resolved).
func parseTargets(list string) ([]string, error) {
	var out []string
	for _, a := range strings.Split(list, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		norm, err := checkLoopback(a)
		if err != nil {
			return nil, err
		}
		out = append(out, norm)
	}
	if len(out) == 0 {
		return nil, errors.New("loadtest: no server address (-addr host:port[,host:port...])")
	}
	return out, nil
}

// checkLoopback returns addr (host:port) with localhost spelled 127.0.0.1, or an error if
// the host is not a loopback IP address.
func checkLoopback(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("loadtest: address %q: %v", addr, err)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return "", fmt.Errorf("loadtest: address %q: bad port", addr)
	}
	if strings.EqualFold(host, "localhost") {
		host = "127.0.0.1"
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return "", fmt.Errorf("loadtest: address %q: the host must be a loopback IP address or localhost", addr)
	}
	if !ip.IsLoopback() {
		return "", fmt.Errorf("loadtest: address %q is not a loopback address: this tool only loads a server on this machine", addr)
	}
	return net.JoinHostPort(ip.String(), port), nil
}

// sourceAddrs returns the n source addresses 127.0.0.1 .. 127.0.0.n that client sockets
// are spread over (every 127/8 address is this machine's on Linux, and each has its own
// ephemeral ports). For an IPv6 target there is one source, ::1.
func sourceAddrs(target string, n int) ([]netip.Addr, error) {
	host, _, err := net.SplitHostPort(target)
	if err != nil {
		return nil, err
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.Is6() && !ip.Is4In6() {
		return []netip.Addr{netip.IPv6Loopback()}, nil
	}
	if n < 1 || n > maxSources {
		return nil, fmt.Errorf("loadtest: %d source addresses: want 1..%d", n, maxSources)
	}
	out := make([]netip.Addr, n)
	for i := range out {
		out[i] = netip.AddrFrom4([4]byte{127, 0, 0, byte(i + 1)})
	}
	return out, nil
}

// sourcesNeeded is how many source addresses conns connections to one server address
// need when each source has ports ephemeral ports.
func sourcesNeeded(conns, ports int) int {
	per := int(float64(ports) * portHeadroom)
	if per < 1 {
		per = 1
	}
	return max(minSources, (conns+per-1)/per)
}

// ephemeralPorts reads the size of the ephemeral port range from /proc, or returns the
// Linux default.
func ephemeralPorts() int {
	data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return defaultEphemeralPorts
	}
	lo, hi, ok := parsePortRange(string(data))
	if !ok {
		return defaultEphemeralPorts
	}
	return hi - lo + 1
}

// parsePortRange parses "32768\t60999\n".
func parsePortRange(s string) (lo, hi int, ok bool) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return 0, 0, false
	}
	lo, err1 := strconv.Atoi(f[0])
	hi, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || lo < 1 || hi < lo || hi > 65535 {
		return 0, 0, false
	}
	return lo, hi, true
}

// fdHeadroom is the file descriptors the tool needs besides its WebSockets: stdio, the
// HTTP client's connections to /api and /metrics, the runtime's poller.
const fdHeadroom = 64

// raiseFileLimit raises this process's open-file limit to its hard limit and fails,
// saying what to do, if that is still too few for conns sockets.
func raiseFileLimit(conns int) (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("loadtest: getrlimit: %v", err)
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			return 0, fmt.Errorf("loadtest: setrlimit: %v", err)
		}
	}
	if need := uint64(conns + fdHeadroom); lim.Cur < need {
		return lim.Cur, fmt.Errorf("loadtest: %d connections need %d open files but the hard limit is %d (raise it as root: ulimit -Hn %d; the server needs as many)",
			conns, need, lim.Cur, need)
	}
	return lim.Cur, nil
}
