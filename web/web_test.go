package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHandler(t *testing.T) {
	h := Handler()
	tests := []struct {
		name        string
		method      string
		path        string
		status      int
		contentType string
		cache       string // expected Cache-Control prefix, "" to skip
		body        string // a substring of the body, "" to skip
	}{
		{"root is index", "GET", "/", 200, "text/html; charset=utf-8", "no-cache", `<div id="app">`},
		{"index by name", "GET", "/index.html", 200, "text/html; charset=utf-8", "no-cache", `<div id="app">`},
		{"room page", "GET", "/r/q7dk2m9xta", 200, "text/html; charset=utf-8", "no-cache", `<script type="module"`},
		{"room page with dash", "GET", "/r/abc-DEF_9", 200, "text/html; charset=utf-8", "no-cache", ""},
		{"module", "GET", "/js/main.js", 200, "text/javascript; charset=utf-8", "public, max-age=300", "import"},
		{"stylesheet", "GET", "/app.css", 200, "text/css; charset=utf-8", "public, max-age=300", ":root"},
		{"icon", "GET", "/icon.svg", 200, "image/svg+xml", "public, max-age=300", "<svg"},
		{"head", "HEAD", "/js/notation.js", 200, "text/javascript; charset=utf-8", "", ""},
		{"missing asset", "GET", "/js/nope.js", 404, "", "", ""},
		{"directory", "GET", "/js/", 404, "", "", ""},
		{"room without id", "GET", "/r/", 404, "", "", ""},
		{"room with slash", "GET", "/r/a/b", 404, "", "", ""},
		{"dot dot", "GET", "/../web.go", 404, "", "", ""},
		{"not embedded", "GET", "/web.go", 404, "", "", ""},
		{"post refused", "POST", "/", 405, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
			res := rec.Result()
			if res.StatusCode != tt.status {
				t.Fatalf("%s %s: status %d, want %d", tt.method, tt.path, res.StatusCode, tt.status)
			}
			if tt.contentType != "" {
				if got := res.Header.Get("Content-Type"); got != tt.contentType {
					t.Errorf("Content-Type = %q, want %q", got, tt.contentType)
				}
			}
			if tt.cache != "" {
				if got := res.Header.Get("Cache-Control"); got != tt.cache {
					t.Errorf("Cache-Control = %q, want %q", got, tt.cache)
				}
			}
			if tt.body != "" {
				b, _ := io.ReadAll(res.Body)
				if !strings.Contains(string(b), tt.body) {
					t.Errorf("body does not contain %q", tt.body)
				}
			}
		})
	}
}

// TestHandlerModulesResolve checks that every module the client imports is
// served, so a renamed file cannot break the page silently.
func TestHandlerModulesResolve(t *testing.T) {
	h := Handler()
	seen := map[string]bool{}
	queue := []string{"/js/main.js"}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: status %d", p, rec.Code)
		}
		for _, line := range strings.Split(rec.Body.String(), "\n") {
			_, spec, ok := strings.Cut(line, " from './")
			if !ok || !strings.HasPrefix(strings.TrimSpace(line), "import") && !strings.HasPrefix(strings.TrimSpace(line), "}") {
				continue
			}
			name, _, _ := strings.Cut(spec, "'")
			queue = append(queue, "/js/"+name)
		}
	}
	if len(seen) < 5 {
		t.Fatalf("only %d modules reached from main.js: %v", len(seen), seen)
	}
}

func TestHandlerIndexHeaders(t *testing.T) {
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/r/abc", nil))
	csp := rec.Header().Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "connect-src 'self' ws: wss:", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(rec.Body.String(), "<script>") || strings.Contains(rec.Body.String(), " style=") {
		t.Error("index.html has inline script or style, which the policy forbids")
	}
}

func TestHandlerConditionalGet(t *testing.T) {
	h := Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/app.css", nil))
	lm := rec.Header().Get("Last-Modified")
	if lm == "" {
		t.Fatal("no Last-Modified on an asset")
	}
	req := httptest.NewRequest("GET", "/app.css", nil)
	req.Header.Set("If-Modified-Since", lm)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Fatalf("conditional GET: status %d, want 304", rec.Code)
	}
}

func FuzzIsRoomPage(f *testing.F) {
	for _, s := range []string{"/r/abc", "/r/", "/r/a/b", "/x/abc", "/r/" + strings.Repeat("a", 65), "/r/é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if !isRoomPage(p) {
			return
		}
		id := strings.TrimPrefix(p, "/r/")
		if id == "" || strings.ContainsAny(id, "/.?#%") || len(id) > 64 {
			t.Fatalf("isRoomPage(%q) accepted a bad id", p)
		}
	})
}

func BenchmarkHandler(b *testing.B) {
	h := Handler()
	for _, bc := range []struct{ path, accept string }{
		{"/", ""}, {"/r/q7dk2m9xta", ""}, {"/js/room.js", ""}, {"/js/room.js", "gzip"},
	} {
		b.Run(strings.ReplaceAll(bc.path, "/", "_")+"/"+bc.accept, func(b *testing.B) {
			req := httptest.NewRequest("GET", bc.path, nil)
			if bc.accept != "" {
				req.Header.Set("Accept-Encoding", bc.accept)
			}
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}

func TestHandlerGzip(t *testing.T) {
	h := Handler()
	tests := []struct {
		name, path, accept string
		gzipped            bool
	}{
		{"module gzipped", "/js/room.js", "gzip, deflate, br", true},
		{"index gzipped", "/r/abc", "br;q=1.0, gzip;q=0.8", true},
		{"gzip refused", "/js/room.js", "gzip;q=0", false},
		{"no header", "/app.css", "", false},
		{"other coding", "/app.css", "br", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plain := httptest.NewRecorder()
			h.ServeHTTP(plain, httptest.NewRequest("GET", tt.path, nil))
			req := httptest.NewRequest("GET", tt.path, nil)
			if tt.accept != "" {
				req.Header.Set("Accept-Encoding", tt.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d", rec.Code)
			}
			if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary = %q", got)
			}
			if (rec.Header().Get("Content-Encoding") == "gzip") != tt.gzipped {
				t.Fatalf("Content-Encoding = %q, want gzip %v", rec.Header().Get("Content-Encoding"), tt.gzipped)
			}
			body := rec.Body.Bytes()
			if tt.gzipped {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if body, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
				if rec.Body.Len() >= plain.Body.Len() {
					t.Errorf("gzip is %d bytes, plain %d", rec.Body.Len(), plain.Body.Len())
				}
			}
			if !bytes.Equal(body, plain.Body.Bytes()) {
				t.Error("the gzipped body is not the file")
			}
		})
	}
}
