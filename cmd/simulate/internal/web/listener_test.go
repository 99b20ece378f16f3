package web

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestLimitListener checks that a third connection is not accepted while
// two are open, is accepted once one of them closes, and that closing the
// listener ends an Accept waiting for a slot.
func TestLimitListener(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := LimitListener(inner, 2)
	accepted := make(chan net.Conn, 3)
	acceptErr := make(chan error, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				acceptErr <- err
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first := <-accepted
	<-accepted
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted while two were open")
	case <-time.After(200 * time.Millisecond):
	}
	// Closing twice gives back one slot, not two.
	first.Close()
	first.Close()
	select {
	case c := <-accepted:
		defer c.Close()
	case <-time.After(10 * time.Second):
		t.Fatal("the third connection was not accepted once the first closed")
	}
	c, err := net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	select {
	case <-accepted:
		t.Fatal("a fourth connection was accepted while two were open: a double Close gave back two slots")
	case <-time.After(200 * time.Millisecond):
	}
	ln.Close()
	select {
	case err := <-acceptErr:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Accept after Close: %v, want net.ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Accept waiting for a slot did not end when the listener closed")
	}
}

// TestPipelinedReaderCutOff: a client that sends requests by the
// thousand, for the page's script (25 KB each) or for the units' list (a
// small JSON answer), and reads none of the answers is cut off once it has
// taken nothing for writeTimeout, and gives its connection back: on a
// server that holds one connection at once, another client's request is
// then answered. Without a write deadline on answers written at once, the
// first client held the only connection for ever; with one that a
// handler cleared as it returned, in about one try in fifty, when
// net/http's own last write (a chunked answer's end) met the full socket.
// The JSON answer now says its length, so there is no such write.
func TestPipelinedReaderCutOff(t *testing.T) {
	old := writeTimeout
	writeTimeout = 200 * time.Millisecond
	defer func() { writeTimeout = old }()
	for _, tc := range []struct {
		path  string
		count int
	}{{"/app.js", 1000}, {"/api/units", 100_000}} {
		ts := httptest.NewUnstartedServer(New(Config{}, fakeEngine(&fakeJob{})))
		ts.Listener = LimitListener(ts.Listener, 1)
		ts.Start()
		stalled, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		requests := strings.Repeat("GET "+tc.path+" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", tc.count)
		go func() { _, _ = io.WriteString(stalled, requests) }() // blocks once the server stops reading
		time.Sleep(100 * time.Millisecond)                       // its connection first
		client := &http.Client{Timeout: 10 * time.Second}
		resp, err := client.Get(ts.URL + "/api/units")
		if err != nil {
			t.Errorf("%s: a second client while the first reads nothing: %v", tc.path, err)
		} else {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || resp.ContentLength != int64(len(body)) {
				t.Errorf("%s: the second client got %d, Content-Length %d, %s", tc.path, resp.StatusCode, resp.ContentLength, fmt.Sprintf("%.100q", body))
			}
		}
		stalled.Close()
		ts.Close()
	}
}
