package rooms

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Timings of a Cluster node's sharded subscriptions.
const (
	// shardPingAfter is how long a sharded pub/sub connection may stay silent before the
	// node sends it a PING; a connection silent for twice as long is taken for dead (a
	// killed master on loopback is seen at once, a partitioned one only this way).
	shardPingAfter = 5 * time.Second
	// resubscribeMin is the wait before a round of resubscription: the pushes and
	// errors of one failover arrive together and are handled in one round.
	resubscribeMin = 100 * time.Millisecond
	// resubscribeMax caps the wait, which doubles while rounds follow each other closely
	// (a dead master is refused until its replica is promoted: cluster-node-timeout plus
	// an election, seconds).
	resubscribeMax = 2 * time.Second
)

// shardSubs are a Cluster node's sharded subscriptions (SSUBSCRIBE): at most one pub/sub
// connection per master, carrying the channels of every slot of that master that has a
// loaded room, with the node's own bookkeeping of which channel rides which connection.
//
// Redis takes an SSUBSCRIBE for the channels of one slot per command, and go-redis's
// PubSub resubscribes all of a connection's channels in one command when it reconnects
// (refused with CROSSSLOT when they span slots), so go-redis cannot keep a connection
// of several slots by itself. Each connection here is still a go-redis PubSub, opened on
// the master's own client (the ClusterClient's node client from MasterForKey), because it
// brings the Cluster's dialer, password, TLS and RESP3 handling; what it does not do is
// left to shardSubs:
//   - shardSubs reads each connection itself (ReceiveTimeout, not PubSub.Channel, which
//     hides errors and the server's sunsubscribe pushes), and treats any error on it as
//     the end of that connection: it closes the PubSub and subscribes its channels again.
//     go-redis's own resubscription only runs inside the failed call that reports the
//     error, on a connection about to be closed, so it does no harm.
//   - A server that loses a slot (a migration, or a master turned replica by a failover)
//     sends sunsubscribe for each channel of the slot on a connection that stays open;
//     those channels are subscribed again too.
//   - The channels to subscribe again wait for one goroutine (keep), which reloads the
//     Cluster's slot map, finds each channel's master and sends one SSUBSCRIBE per slot,
//     with a growing wait between rounds while the Cluster has not settled.
//
// Messages published between a connection's loss and the resubscription are lost: a
// room notices the gap in seq numbers (or its quiet check does) and reads the log, as
// Broker's contract says.
type shardSubs struct {
	cc       *redis.ClusterClient
	dispatch func(channel string, msg []byte) // hands a message to the channel's subscriber

	mu     sync.Mutex
	want   map[string]*shardConn // subscribed channel -> its connection (nil: to subscribe again)
	conns  map[string]*shardConn // master address -> its connection
	closed bool

	kick chan struct{} // wakes keep (buffer 1: one wake-up stands for many)
	done chan struct{} // closed by close
	wg   sync.WaitGroup
}

// shardConn is one pub/sub connection to a master and the channels subscribed on it.
type shardConn struct {
	addr  string
	ps    *redis.PubSub
	chans map[string]struct{}
}

func newShardSubs(cc *redis.ClusterClient, dispatch func(string, []byte)) *shardSubs {
	s := &shardSubs{cc: cc, dispatch: dispatch, want: map[string]*shardConn{}, conns: map[string]*shardConn{},
		kick: make(chan struct{}, 1), done: make(chan struct{})}
	s.wg.Add(1)
	go s.keep()
	return s
}

// subscribe subscribes ch at its master now if it can, otherwise leaves it to keep.
func (s *shardSubs) subscribe(ch string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.want[ch] = nil
	if !s.placeLocked([]string{ch}) {
		s.poke()
	}
}

// unsubscribe drops ch, closing its connection with the connection's last channel.
func (s *shardSubs) unsubscribe(ch string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.want[ch]
	delete(s.want, ch)
	if !ok || c == nil {
		return
	}
	delete(c.chans, ch)
	if len(c.chans) == 0 {
		s.closeLocked(c)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), backendTimeout)
	defer cancel()
	if err := c.ps.SUnsubscribe(ctx, ch); err != nil {
		s.dropLocked(c)
		s.poke()
	}
}

// close closes every connection and stops keep and the readers. A second call does
// nothing.
func (s *shardSubs) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	for _, c := range s.conns {
		s.closeLocked(c)
	}
	s.mu.Unlock()
	close(s.done)
	s.wg.Wait()
}

// placeLocked subscribes channels at their masters, one SSUBSCRIBE per slot, and
// reports whether all of them are subscribed. A master that fails is not tried again in
// the same call (its other slots would each wait for the same dead address).
func (s *shardSubs) placeLocked(channels []string) bool {
	bySlot := map[int][]string{}
	for _, ch := range channels {
		slot := redisSlot(ch)
		bySlot[slot] = append(bySlot[slot], ch)
	}
	ok := true
	failed := map[string]bool{}
	for _, group := range bySlot {
		ctx, cancel := context.WithTimeout(context.Background(), backendTimeout)
		master, err := s.cc.MasterForKey(ctx, group[0])
		if err != nil || failed[master.Options().Addr] {
			cancel()
			ok = false
			continue
		}
		c := s.connLocked(master)
		err = c.ps.SSubscribe(ctx, group...)
		cancel()
		if err != nil {
			failed[c.addr] = true
			s.dropLocked(c)
			ok = false
			continue
		}
		for _, ch := range group {
			s.want[ch] = c
			c.chans[ch] = struct{}{}
		}
	}
	return ok
}

// connLocked returns the connection to master, opening it (and its reader) if needed.
func (s *shardSubs) connLocked(master *redis.Client) *shardConn {
	addr := master.Options().Addr
	if c := s.conns[addr]; c != nil {
		return c
	}
	// No channels yet: the PubSub dials with its first SSUBSCRIBE (or its reader's
	// first read), so go-redis has nothing of its own to resubscribe.
	c := &shardConn{addr: addr, ps: master.SSubscribe(context.Background()), chans: map[string]struct{}{}}
	s.conns[addr] = c
	s.wg.Add(1)
	go s.read(c)
	return c
}

// closeLocked closes c; its reader ends with it.
func (s *shardSubs) closeLocked(c *shardConn) {
	if s.conns[c.addr] == c {
		delete(s.conns, c.addr)
	}
	c.ps.Close()
}

// dropLocked closes c and marks its channels for keep to subscribe again.
func (s *shardSubs) dropLocked(c *shardConn) {
	for ch := range c.chans {
		if s.want[ch] == c {
			s.want[ch] = nil
		}
	}
	clear(c.chans)
	s.closeLocked(c)
}

// poke wakes keep without waiting.
func (s *shardSubs) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// read delivers c's messages until c is closed, pinging it when it is silent. An error
// ends the connection (its channels go to keep); a sunsubscribe pushed by the server for
// a channel still wanted on c means the slot moved, and the channel goes to keep too.
func (s *shardSubs) read(c *shardConn) {
	defer s.wg.Done()
	pinged := false
	for {
		msg, err := c.ps.ReceiveTimeout(context.Background(), shardPingAfter)
		var netErr net.Error
		switch {
		case errors.Is(err, redis.ErrClosed):
			return
		case err != nil && errors.As(err, &netErr) && netErr.Timeout() && !pinged:
			pinged = true
			ctx, cancel := context.WithTimeout(context.Background(), backendTimeout)
			err = c.ps.Ping(ctx)
			cancel()
			if err == nil {
				continue
			}
		}
		if err != nil {
			s.mu.Lock()
			s.dropLocked(c)
			s.mu.Unlock()
			s.poke()
			return
		}
		pinged = false
		switch m := msg.(type) {
		case *redis.Message:
			s.dispatch(m.Channel, []byte(m.Payload))
		case *redis.Subscription:
			if m.Kind == "sunsubscribe" {
				s.lostChannel(c, m.Channel)
			}
		}
	}
}

// lostChannel handles a sunsubscribe on c. One for a channel that this node
// unsubscribed is its own confirmation; one for a channel still wanted on c is the
// server's: the channel's slot left this master. (A channel unsubscribed and subscribed
// again on the same connection before the confirmation is read is taken for the second
// kind and subscribed once more, which Redis treats as a no-op.)
func (s *shardSubs) lostChannel(c *shardConn, ch string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.want[ch] != c {
		return
	}
	s.want[ch] = nil
	delete(c.chans, ch)
	if len(c.chans) == 0 {
		s.closeLocked(c)
	}
	s.poke()
}

// keep subscribes the channels that lost their subscription, in rounds: each waits
// first (a failover's pushes and errors arrive together), reloads the slot map and
// places every waiting channel. The wait doubles while rounds follow each other within
// resubscribeMax and starts again at resubscribeMin once the Cluster has been calm that
// long; a round that could not place everything kicks the next one.
func (s *shardSubs) keep() {
	defer s.wg.Done()
	wait := resubscribeMin
	var last time.Time
	for {
		select {
		case <-s.kick:
		case <-s.done:
			return
		}
		if time.Since(last) > resubscribeMax {
			wait = resubscribeMin
		}
		select {
		case <-time.After(wait):
		case <-s.done:
			return
		}
		if !s.resubscribe() {
			s.poke()
		}
		last = time.Now()
		wait = min(2*wait, resubscribeMax)
	}
}

// resubscribe reloads the Cluster's slot map and places every channel that waits for a
// subscription. It reports whether none is left waiting.
func (s *shardSubs) resubscribe() bool {
	ctx, cancel := context.WithTimeout(context.Background(), backendTimeout)
	// ForEachMaster reloads the slot map before it returns (ReloadState only schedules
	// a reload), so that MasterForKey below names the masters of now. It falls back to
	// the map it had when no node answers; the SSUBSCRIBEs then fail and a later round
	// tries again.
	s.cc.ForEachMaster(ctx, func(context.Context, *redis.Client) error { return nil })
	cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return true
	}
	var waiting []string
	for ch, c := range s.want {
		if c == nil {
			waiting = append(waiting, ch)
		}
	}
	return s.placeLocked(waiting)
}
