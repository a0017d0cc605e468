package redistest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Timings of the started topologies: short, so that a failover in a test takes seconds,
// long enough that a busy 2-core machine does not see a node as down when it is not.
const (
	// downAfter is how long a Sentinel waits for a silent master before calling it down.
	downAfter = 1000 * time.Millisecond
	// nodeTimeout is how long a Cluster node waits for a silent node before calling it
	// failing (its replica then takes over).
	nodeTimeout = 1000 * time.Millisecond
	// clusterBusOffset is the distance from a Cluster node's port to its bus port.
	clusterBusOffset = 10000
	// readyWait bounds the wait for a topology to settle (Sentinels finding each other,
	// a Cluster agreeing on its slots).
	readyWait = 30 * time.Second
)

// needTopology ends the test when a topology cannot be started: Fatal in CI, Skip
// elsewhere.
func needTopology(t testing.TB, what string, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("a Redis %s is required in CI: %v", what, err)
	}
	t.Skipf("no Redis %s: %v (install redis-server)", what, err)
}

// replication makes a new replica sync at once: Redis otherwise waits 5 s for more
// replicas to share a diskless transfer, and WAIT answers 0 until the sync is done.
var replication = []string{"--repl-diskless-sync-delay", "0"}

// startNode starts one redis-server of a topology in a directory of its own.
func startNode(t testing.TB, port int, conf string, args ...string) (*Server, error) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		return nil, err
	}
	if port == 0 {
		var err error
		if port, err = freePort(0); err != nil {
			return nil, err
		}
	}
	s := &Server{dir: t.TempDir(), port: port, conf: conf, args: args}
	if err := s.Restart(); err != nil {
		return nil, err
	}
	t.Cleanup(s.Stop)
	t.Cleanup(func() {
		if t.Failed() {
			if b, err := os.ReadFile(filepath.Join(s.dir, "redis.log")); err == nil {
				t.Logf("redis-server on port %d (%v) log:\n%s", s.port, args, b)
			}
		}
	})
	return s, nil
}

// Sentinel is a Redis Sentinel set of the test's own: one master, one replica and three
// Sentinels watching them under the name Master, all on loopback, killed when the test
// ends.
type Sentinel struct {
	// Master is the name the Sentinels know the master by.
	Master string
	// Data holds the two data servers: Data[0] started as the master, Data[1] as its
	// replica (after a failover the roles turn).
	Data []*Server
	// Sentinels are the three Sentinel processes.
	Sentinels []*Server
	// Link is nil, or (StartPartitionableSentinel) the proxy in front of Data[0]
	// through which everyone reaches it, and which can cut the replica off.
	Link *Link
}

// StartSentinel starts a Sentinel set whose data servers get the extra arguments (e.g.
// "--appendonly", "yes") and waits until the Sentinels know the master, its replica and
// each other (so that a failover can start at once).
func StartSentinel(t testing.TB, args ...string) *Sentinel {
	t.Helper()
	s, err := startSentinel(t, false, args...)
	if err != nil {
		needTopology(t, "Sentinel set", err)
	}
	return s
}

// StartPartitionableSentinel is StartSentinel with a Link in front of the master: the
// Sentinels monitor the master at the Link's address, the replica replicates through it
// (from its own source address, which is how the Link knows its connection), and the
// failover clients find the master there too. Link.Cut then partitions the replica from
// the master while the Sentinels still reach both. Once the replica is promoted, everyone
// reaches it directly.
func StartPartitionableSentinel(t testing.TB, args ...string) *Sentinel {
	t.Helper()
	s, err := startSentinel(t, true, args...)
	if err != nil {
		needTopology(t, "Sentinel set", err)
	}
	return s
}

func startSentinel(t testing.TB, linked bool, args ...string) (*Sentinel, error) {
	s := &Sentinel{Master: "hall"}
	master, err := startNode(t, 0, "", append(replication, args...)...)
	if err != nil {
		return nil, err
	}
	masterPort := master.port
	var source []string
	if linked {
		if s.Link, err = startLink(t, master.Addr()); err != nil {
			return nil, err
		}
		masterPort = s.Link.Port()
		source = []string{"--bind-source-addr", replicaSource}
	}
	replica, err := startNode(t, 0, "", append(append(append([]string{"--replicaof", "127.0.0.1", strconv.Itoa(masterPort)}, source...), replication...), args...)...)
	if err != nil {
		return nil, err
	}
	s.Data = []*Server{master, replica}
	for range 3 {
		conf := filepath.Join(t.TempDir(), "sentinel.conf")
		text := fmt.Sprintf("sentinel monitor %s 127.0.0.1 %d 2\n"+
			"sentinel down-after-milliseconds %s %d\n"+
			"sentinel failover-timeout %s 5000\n"+
			"sentinel parallel-syncs %s 1\n", s.Master, masterPort, s.Master, downAfter.Milliseconds(), s.Master, s.Master)
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			return nil, err
		}
		sen, err := startNode(t, 0, conf, "--sentinel")
		if err != nil {
			return nil, err
		}
		s.Sentinels = append(s.Sentinels, sen)
	}
	ctx, cancel := context.WithTimeout(context.Background(), readyWait)
	defer cancel()
	if err := waitReplicated(ctx, s.Data); err != nil {
		return nil, err
	}
	return s, s.waitKnown(ctx)
}

// waitReplicated waits until every running master among servers has a replica online
// (in sync, so that WAIT can count it).
func waitReplicated(ctx context.Context, servers []*Server) error {
	for _, n := range servers {
		if !n.Running() {
			continue
		}
		rc := redis.NewClient(&redis.Options{Addr: n.Addr()})
		err := poll(ctx, func() error {
			info, err := rc.Info(ctx, "replication").Result()
			if err != nil {
				return err
			}
			if strings.Contains(info, "role:master") && !strings.Contains(info, "state=online") {
				return fmt.Errorf("master %s has no replica in sync", n.Addr())
			}
			return nil
		})
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// waitKnown waits until every running Sentinel sees a master with one replica and the
// other two Sentinels.
func (s *Sentinel) waitKnown(ctx context.Context) error {
	for _, sen := range s.Sentinels {
		if !sen.Running() {
			continue
		}
		c := redis.NewSentinelClient(&redis.Options{Addr: sen.Addr()})
		err := poll(ctx, func() error {
			m, err := c.Master(ctx, s.Master).Result()
			if err != nil {
				return err
			}
			if m["num-slaves"] != "1" || m["num-other-sentinels"] != "2" || strings.Contains(m["flags"], "down") {
				return fmt.Errorf("sentinel %s sees master %s:%s flags %s, %s replicas, %s other sentinels",
					sen.Addr(), m["ip"], m["port"], m["flags"], m["num-slaves"], m["num-other-sentinels"])
			}
			return nil
		})
		c.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// Addrs are the Sentinels' host:port.
func (s *Sentinel) Addrs() []string {
	var out []string
	for _, sen := range s.Sentinels {
		out = append(out, sen.Addr())
	}
	return out
}

// Client returns a failover client on the set's master, closed when the test ends.
func (s *Sentinel) Client(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewFailoverClient(&redis.FailoverOptions{MasterName: s.Master, SentinelAddrs: s.Addrs()})
	t.Cleanup(func() { c.Close() })
	return c
}

// CurrentMaster returns the data server that the first Sentinel to answer names as
// master now. The Sentinels learn of a promotion from the one that made it within
// about 2 s (their hello interval), so for a moment they may disagree: AllName waits
// for them all.
func (s *Sentinel) CurrentMaster(ctx context.Context) (*Server, error) {
	var lastErr error
	for _, sen := range s.Sentinels {
		if !sen.Running() {
			continue
		}
		m, err := s.namedBy(ctx, sen)
		if err == nil {
			return m, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// AllName returns nil if every running Sentinel names m as master, or an error saying
// which one does not.
func (s *Sentinel) AllName(ctx context.Context, m *Server) error {
	for _, sen := range s.Sentinels {
		if !sen.Running() {
			continue
		}
		got, err := s.namedBy(ctx, sen)
		if err != nil {
			return err
		}
		if got != m {
			return fmt.Errorf("sentinel %s names %s, not %s", sen.Addr(), got.Addr(), m.Addr())
		}
	}
	return nil
}

// namedBy returns the data server one Sentinel names as master.
func (s *Sentinel) namedBy(ctx context.Context, sen *Server) (*Server, error) {
	c := redis.NewSentinelClient(&redis.Options{Addr: sen.Addr()})
	defer c.Close()
	addr, err := c.GetMasterAddrByName(ctx, s.Master).Result()
	if err != nil {
		return nil, err
	}
	for _, d := range s.Data {
		if len(addr) == 2 && addr[1] == strconv.Itoa(d.port) {
			return d, nil
		}
	}
	if s.Link != nil && len(addr) == 2 && addr[1] == strconv.Itoa(s.Link.Port()) {
		return s.Data[0], nil // the first master, behind its Link
	}
	return nil, fmt.Errorf("sentinel %s names master %v, not one of ours", sen.Addr(), addr)
}

// Flush empties every database of the current master.
func (s *Sentinel) Flush(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	m, err := s.CurrentMaster(ctx)
	if err != nil {
		t.Fatalf("sentinel master: %v", err)
	}
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	defer c.Close()
	if err := c.FlushAll(ctx).Err(); err != nil {
		t.Fatalf("flushall: %v", err)
	}
}

// Cluster is a Redis Cluster of the test's own: three masters and three replicas on
// loopback, every slot assigned, killed when the test ends.
type Cluster struct {
	// Nodes are the six servers (which is master and which replica is the Cluster's
	// business and changes with failovers).
	Nodes []*Server
}

// StartCluster starts six cluster-enabled redis-servers with the extra arguments, joins
// them with `redis-cli --cluster create ... --cluster-replicas 1`, and waits until every
// node reports the cluster ok with its three replicas attached.
func StartCluster(t testing.TB, args ...string) *Cluster {
	t.Helper()
	c, err := startCluster(t, args...)
	if err != nil {
		needTopology(t, "Cluster", err)
	}
	return c
}

func startCluster(t testing.TB, args ...string) (*Cluster, error) {
	if _, err := exec.LookPath("redis-cli"); err != nil {
		return nil, err
	}
	c := &Cluster{}
	for range 6 {
		port, err := freePort(clusterBusOffset)
		if err != nil {
			return nil, err
		}
		n, err := startNode(t, port, "", append([]string{"--cluster-enabled", "yes",
			"--cluster-config-file", "nodes.conf", "--cluster-node-timeout", strconv.FormatInt(nodeTimeout.Milliseconds(), 10)},
			append(replication, args...)...)...)
		if err != nil {
			return nil, err
		}
		c.Nodes = append(c.Nodes, n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), readyWait)
	defer cancel()
	create := []string{"--cluster", "create"}
	create = append(create, c.Addrs()...)
	create = append(create, "--cluster-replicas", "1", "--cluster-yes")
	if out, err := exec.CommandContext(ctx, "redis-cli", create...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("redis-cli --cluster create: %v: %s", err, out)
	}
	return c, c.WaitOK(ctx)
}

// Addrs are the nodes' host:port.
func (c *Cluster) Addrs() []string {
	var out []string
	for _, n := range c.Nodes {
		out = append(out, n.Addr())
	}
	return out
}

// WaitOK waits until every running node reports cluster_state ok with every slot served,
// and three masters each have a replica in sync.
func (c *Cluster) WaitOK(ctx context.Context) error {
	if err := c.waitSlots(ctx); err != nil {
		return err
	}
	return waitReplicated(ctx, c.Nodes)
}

func (c *Cluster) waitSlots(ctx context.Context) error {
	for _, n := range c.Nodes {
		if !n.Running() {
			continue
		}
		rc := redis.NewClient(&redis.Options{Addr: n.Addr()})
		err := poll(ctx, func() error {
			info, err := rc.ClusterInfo(ctx).Result()
			if err != nil {
				return err
			}
			if !strings.Contains(info, "cluster_state:ok") || !strings.Contains(info, "cluster_slots_ok:16384") {
				return fmt.Errorf("node %s: %s", n.Addr(), strings.Join(strings.Fields(info)[:4], " "))
			}
			nodes, err := rc.ClusterNodes(ctx).Result()
			if err != nil {
				return err
			}
			if masters, replicas := strings.Count(nodes, "master"), strings.Count(nodes, "slave"); masters != 3 || replicas != 3 {
				return fmt.Errorf("node %s sees %d masters and %d replicas", n.Addr(), masters, replicas)
			}
			return nil
		})
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// Client returns a Cluster client, closed when the test ends.
func (c *Cluster) Client(t testing.TB) *redis.ClusterClient {
	t.Helper()
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs()})
	t.Cleanup(func() { cc.Close() })
	return cc
}

// MasterOf returns the node that serves key's slot now.
func (c *Cluster) MasterOf(ctx context.Context, key string) (*Server, error) {
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs()})
	defer cc.Close()
	m, err := cc.MasterForKey(ctx, key)
	if err != nil {
		return nil, err
	}
	for _, n := range c.Nodes {
		if n.Addr() == m.Options().Addr {
			return n, nil
		}
	}
	return nil, fmt.Errorf("master %s of %q is not one of ours", m.Options().Addr, key)
}

// Flush empties every master.
func (c *Cluster) Flush(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs()})
	defer cc.Close()
	if err := cc.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		return m.FlushAll(ctx).Err()
	}); err != nil {
		t.Fatalf("cluster flushall: %v", err)
	}
}

// poll calls f until it returns nil or ctx ends (then with f's last error).
func poll(ctx context.Context, f func() error) error {
	for {
		err := f()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond): // polling processes we do not control
		}
	}
}
