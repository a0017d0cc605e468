package redistest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// replicaSource is the loopback address a partitionable set's replica dials its master
// from (redis-server's bind-source-addr): the Link tells the replication connection from
// every other connection by it.
const replicaSource = "127.0.0.2"

// Link is a TCP proxy in front of a Redis master, through which every client reaches it:
// the Sentinels, the servers under test and the replica's replication connection. Cut
// partitions the replica from the master: the replication connection stops carrying
// bytes both ways (they are held, as a network holds them in a partition), while every
// other connection, the Sentinels' included, goes on. A partition that lasts until the
// master dies delivers nothing more: what the master had not sent before the cut never
// reaches the replica.
type Link struct {
	ln       net.Listener
	upstream string

	mu    sync.Mutex
	cond  *sync.Cond // signalled when cut changes or a held queue grows
	cut   bool
	conns []net.Conn
}

// startLink listens on a free loopback port and forwards every connection to upstream.
func startLink(t testing.TB, upstream string) (*Link, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	l := &Link{ln: ln, upstream: upstream}
	l.cond = sync.NewCond(&l.mu)
	go l.accept()
	t.Cleanup(l.close)
	return l, nil
}

// Port is the port the Link listens on: the master's address as the others know it.
func (l *Link) Port() int { return l.ln.Addr().(*net.TCPAddr).Port }

// Cut stops the replication connection's traffic (a partition between master and
// replica).
func (l *Link) Cut() { l.setCut(true) }

// Heal lets held bytes and new ones through again.
func (l *Link) Heal() { l.setCut(false) }

func (l *Link) setCut(cut bool) {
	l.mu.Lock()
	l.cut = cut
	l.cond.Broadcast()
	l.mu.Unlock()
}

func (l *Link) close() {
	l.ln.Close()
	l.mu.Lock()
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
	l.cond.Broadcast()
	l.mu.Unlock()
}

func (l *Link) accept() {
	for {
		down, err := l.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", l.upstream)
		if err != nil { // the master is down: so is the connection through the Link
			down.Close()
			continue
		}
		l.mu.Lock()
		l.conns = append(l.conns, down, up)
		l.mu.Unlock()
		gated := down.RemoteAddr().(*net.TCPAddr).IP.String() == replicaSource
		go l.pipe(up, down, gated)
		go l.pipe(down, up, gated)
	}
}

// pipe copies src to dst. On a gated connection the bytes read go to a queue that is
// written out only while the Link is not cut; when src ends during a cut, the queue is
// dropped (the partition never delivered it). Either way dst and src are closed at the
// end, which ends the pipe of the other direction too.
func (l *Link) pipe(dst, src net.Conn, gated bool) {
	defer dst.Close()
	defer src.Close()
	if !gated {
		io.Copy(dst, src)
		return
	}
	var queue [][]byte
	ended := false
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			l.mu.Lock()
			if n > 0 {
				queue = append(queue, append([]byte(nil), buf[:n]...))
			}
			if err != nil {
				ended = true
			}
			l.cond.Broadcast()
			l.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	l.mu.Lock()
	defer l.mu.Unlock()
	for {
		for !ended && (l.cut || len(queue) == 0) {
			l.cond.Wait()
		}
		if l.cut || len(queue) == 0 { // src ended: during the cut, or with nothing held
			return
		}
		b := queue[0]
		queue = queue[1:]
		l.mu.Unlock()
		_, err := dst.Write(b)
		l.mu.Lock()
		if err != nil {
			return
		}
	}
}
