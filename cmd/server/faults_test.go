package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"
)

// A steady flood (about 800 pings a second) is disconnected within the flood window, with
// one rate_limited error a second at most, not one per refused message.
func TestSteadyFloodIsDisconnected(t *testing.T) {
	t.Parallel()
	addr := startServer(t, testConfig(t))
	c := dial(t, addr)
	tick := time.NewTicker(time.Second / 800) // the load, not synchronisation
	defer tick.Stop()
	sent := 0
	for end := time.Now().Add(6 * time.Second); time.Now().Before(end); sent++ {
		<-tick.C
		if err := c.ws.WriteJSON(msg{"type": "ping", "id": sent}); err != nil {
			break // the server closed the connection
		}
	}
	closed := false
	errorsSeen := 0
	for !closed {
		select {
		case m := <-c.msgs:
			if m.str("type") == "error" {
				require.Equal(t, "rate_limited", m.str("code"))
				errorsSeen++
			}
		case <-c.gone:
			closed = true
		case <-time.After(10 * time.Second):
			t.Fatalf("a flood of %d pings was never disconnected", sent)
		}
	}
	var ce *websocket.CloseError
	require.True(t, errors.As(c.err, &ce), "closed with a close frame: %v", c.err)
	require.Equal(t, websocket.ClosePolicyViolation, ce.Code)
	require.LessOrEqual(t, errorsSeen, 8, "one rate_limited error a second at most")
}

// The HTTP API takes one JSON object with Content-Type application/json and answers
// other methods with 405 and Allow; its messages speak the protocol's words.
func TestHTTPStrictness(t *testing.T) {
	t.Parallel()
	addr := startServer(t, testConfig(t))
	post := func(contentType, body string) (int, msg) {
		resp, err := http.Post("http://"+addr+"/api/rooms", contentType, strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		var m msg
		json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	status, m := post("application/json", `{"game":"reversi"} {"game":"gomoku"}`)
	require.Equal(t, http.StatusBadRequest, status, "trailing data: %v", m)
	require.Contains(t, m.obj("error").str("message"), "one JSON object")
	status, m = post("text/plain", `{"game":"reversi"}`)
	require.Equal(t, http.StatusUnsupportedMediaType, status, "%v", m)
	require.Equal(t, "unsupported_media_type", m.obj("error").str("code"))
	status, _ = post("application/json; charset=utf-8", `{"game":"reversi"}`)
	require.Equal(t, http.StatusCreated, status)
	status, m = post("application/json", `{"game":"reversi","size":"eight"}`)
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "size must be a whole number, not a string", m.obj("error").str("message"))

	req, err := http.NewRequest(http.MethodDelete, "http://"+addr+"/api/rooms", bytes.NewReader(nil))
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	require.Contains(t, resp.Header.Get("Allow"), "POST")
	var body msg
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	require.Equal(t, "method_not_allowed", body.obj("error").str("code"))
}
