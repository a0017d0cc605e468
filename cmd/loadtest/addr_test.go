package main

import (
	"net"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCheckLoopback(t *testing.T) {
	for _, tc := range []struct {
		name, addr, want string
		ok               bool
	}{
		{"ipv4 loopback", "127.0.0.1:8080", "127.0.0.1:8080", true},
		{"another 127/8 address", "127.3.4.5:80", "127.3.4.5:80", true},
		{"localhost", "localhost:8080", "127.0.0.1:8080", true},
		{"LOCALHOST", "LOCALHOST:8080", "127.0.0.1:8080", true},
		{"ipv6 loopback", "[::1]:8080", "[::1]:8080", true},
		{"private address", "10.0.0.1:8080", "", false},
		{"public address", "8.8.8.8:80", "", false},
		{"unspecified", "0.0.0.0:8080", "", false},
		{"a name", "example.org:80", "", false},
		{"no port", "127.0.0.1", "", false},
		{"empty port", "127.0.0.1:", "", false},
		{"port zero", "127.0.0.1:0", "", false},
		{"port too big", "127.0.0.1:70000", "", false},
		{"empty host", ":8080", "", false},
		{"mapped ipv4 public", "[::ffff:8.8.8.8]:80", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := checkLoopback(tc.addr)
			if !tc.ok {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestParseTargets(t *testing.T) {
	got, err := parseTargets(" 127.0.0.1:1, localhost:2 ,")
	require.NoError(t, err)
	require.Equal(t, []string{"127.0.0.1:1", "127.0.0.1:2"}, got)
	_, err = parseTargets("127.0.0.1:1,10.1.1.1:2")
	require.ErrorContains(t, err, "not a loopback")
	_, err = parseTargets(" , ")
	require.ErrorContains(t, err, "no server address")
}

// FuzzCheckLoopback: whatever the input, an accepted address is a host:port whose host
// is a loopback IP.
func FuzzCheckLoopback(f *testing.F) {
	for _, s := range []string{"127.0.0.1:8080", "localhost:1", "[::1]:2", "1.2.3.4:5", "x", "[::ffff:127.0.0.1]:9", "127.0.0.1:+80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		got, err := checkLoopback(addr)
		if err != nil {
			return
		}
		host, _, err := net.SplitHostPort(got)
		require.NoError(t, err)
		ip, err := netip.ParseAddr(host)
		require.NoError(t, err)
		require.True(t, ip.IsLoopback(), "%q accepted as %q", addr, got)
	})
}

func TestSourceAddrs(t *testing.T) {
	got, err := sourceAddrs("127.0.0.1:80", 3)
	require.NoError(t, err)
	require.Equal(t, []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("127.0.0.2"), netip.MustParseAddr("127.0.0.3")}, got)
	got, err = sourceAddrs("127.0.0.1:80", maxSources)
	require.NoError(t, err)
	require.Equal(t, netip.MustParseAddr("127.0.0.254"), got[len(got)-1])
	got, err = sourceAddrs("[::1]:80", 5)
	require.NoError(t, err)
	require.Equal(t, []netip.Addr{netip.IPv6Loopback()}, got, "IPv6 has one loopback address")
	for _, n := range []int{0, -1, maxSources + 1} {
		_, err := sourceAddrs("127.0.0.1:80", n)
		require.Error(t, err, n)
	}
}

// TestDialerSpreadsSources: consecutive dials take the source addresses in turn.
func TestDialerSpreadsSources(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	seen := make(chan string, 6)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			seen <- c.RemoteAddr().(*net.TCPAddr).IP.String()
			c.Close() // not a WebSocket server: the handshake fails, the source is what counts
		}
	}()
	sources, err := sourceAddrs(ln.Addr().String(), 3)
	require.NoError(t, err)
	d := newDialer([]string{ln.Addr().String()}, sources)
	var got []string
	for range 6 {
		_, err := d.dial(t.Context(), 0)
		require.Error(t, err)
		got = append(got, <-seen)
	}
	require.Equal(t, []string{"127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.1", "127.0.0.2", "127.0.0.3"}, got)
}

func TestSourcesNeeded(t *testing.T) {
	for _, tc := range []struct {
		name         string
		conns, ports int
		want         int
	}{
		{"a few", 10, 28232, minSources},
		{"twenty thousand", 20000, 28232, minSources},
		{"just fits in five", 5 * 14116, 28232, 5},
		{"one more", 5*14116 + 1, 28232, 6},
		{"no ports", 5, 0, 5},
		{"none", 0, 28232, minSources},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, sourcesNeeded(tc.conns, tc.ports))
		})
	}
}

func TestParsePortRange(t *testing.T) {
	for _, tc := range []struct {
		in     string
		lo, hi int
		ok     bool
	}{
		{"32768\t60999\n", 32768, 60999, true},
		{"1024 65535", 1024, 65535, true},
		{"60999 32768", 0, 0, false},
		{"32768", 0, 0, false},
		{"a b", 0, 0, false},
		{"0 10", 0, 0, false},
		{"1 70000", 0, 0, false},
	} {
		lo, hi, ok := parsePortRange(tc.in)
		require.Equal(t, tc.ok, ok, tc.in)
		if ok {
			require.Equal(t, [2]int{tc.lo, tc.hi}, [2]int{lo, hi}, tc.in)
		}
	}
	require.Positive(t, ephemeralPorts())
}

func TestRaiseFileLimit(t *testing.T) {
	limit, err := raiseFileLimit(10)
	require.NoError(t, err)
	require.GreaterOrEqual(t, limit, uint64(10+fdHeadroom))
	_, err = raiseFileLimit(1 << 40)
	require.ErrorContains(t, err, "hard limit")
}
