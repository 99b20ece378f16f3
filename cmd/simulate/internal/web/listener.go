package web

import (
	"net"
	"sync"
)

// LimitListener returns a listener that holds at most n of ln's
// connections open at once: past n, Accept waits until one of them is
// closed, and connections that arrive meanwhile wait in the system's
// queue of pending connections, as on a server too busy to take them.
//
// Each request holds its body in memory (up to Config.MaxBody) while it
// is read, checked and waits its turn, and a connection costs memory of
// its own, so the number of connections bounds the server's memory where
// the run slots and the turns at reading cannot: they are taken only once
// a body has arrived.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// Accept waits for a free slot, then for a connection.
func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.slots })}, nil
}

// Close stops an Accept that waits for a slot, then closes ln.
func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitConn gives its slot back the first time it is closed.
type limitConn struct {
	net.Conn
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}
