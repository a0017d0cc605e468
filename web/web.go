// Package web serves the browser client, embedded with go:embed.
//
// The client is plain ES modules and CSS under static/, with no build step.
// cmd/server mounts the handler at the root of its mux, next to the API and
// the socket:
//
//	mux := http.NewServeMux()
//	mux.Handle("/api/", api)
//	mux.Handle("/ws", socket)
//	mux.Handle("/", web.Handler())
//
// Room pages ("/r/{id}") are answered with index.html; the client reads the
// room id from the path.
package web

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

//go:embed static
var files embed.FS

// assetMaxAge is how long a browser may reuse a module, stylesheet or icon
// without asking again. It is short because the files are not fingerprinted:
// after a deploy, a returning player gets the new client within five minutes.
const assetMaxAge = 5 * time.Minute

// contentSecurityPolicy lets the page load only its own modules, styles and
// images, and open sockets (ws:, wss:) to any host, since the client may be
// given other server nodes to fail over to. No inline script runs, no one may
// frame the page.
const contentSecurityPolicy = "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// contentTypes fixes the type of every kind of file the client ships, so the
// answer does not depend on the host's MIME tables (an ES module served as
// text/plain is refused by the browser).
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".ico":         "image/x-icon",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".txt":         "text/plain; charset=utf-8",
}

// Handler serves the client: static assets (ES modules, CSS, icons) with
// correct content types and caching (index.html no-cache; other assets are
// cached for a few minutes), and index.html for "/" and for room pages
// "/r/{id}". Any other missing path is a 404. Only GET and HEAD are allowed.
func Handler() http.Handler {
	root, err := fs.Sub(files, "static")
	if err != nil {
		panic("web: embedded static directory missing: " + err.Error())
	}
	h := &handler{assets: map[string][]byte{}, gzipped: map[string][]byte{}, started: time.Now()}
	// The client is a few hundred kilobytes: read it once, so a request
	// costs no copy of the file.
	err = fs.WalkDir(root, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(root, name)
		if err != nil {
			return err
		}
		h.assets[name] = data
		if compressible(name) {
			if gz := compress(data); len(gz) < len(data) {
				h.gzipped[name] = gz
			}
		}
		return nil
	})
	if err != nil {
		panic("web: reading the embedded client: " + err.Error())
	}
	if h.index = h.assets["index.html"]; h.index == nil {
		panic("web: embedded index.html missing")
	}
	return h
}

type handler struct {
	assets  map[string][]byte // path under static/ -> contents
	gzipped map[string][]byte // path -> gzip of the contents, for text files it shrinks
	index   []byte
	started time.Time // modification time for every embedded file
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	if p == "/" || p == "/index.html" || isRoomPage(p) {
		h.serveIndex(w, r)
		return
	}
	name := strings.TrimPrefix(path.Clean(p), "/")
	if name == "" || !fs.ValidPath(name) {
		http.NotFound(w, r)
		return
	}
	data, ok := h.assets[name]
	if !ok {
		http.NotFound(w, r) // directories, missing files
		return
	}
	w.Header().Set("Content-Type", contentType(name))
	w.Header().Set("Cache-Control", "public, max-age="+strconv.Itoa(int(assetMaxAge/time.Second)))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	h.serve(w, r, name, data)
}

// serve writes one file, gzipped when the client accepts it and that is smaller.
func (h *handler) serve(w http.ResponseWriter, r *http.Request, name string, data []byte) {
	if gz, ok := h.gzipped[name]; ok {
		w.Header().Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			w.Header().Set("Content-Encoding", "gzip")
			data = gz
		}
	}
	http.ServeContent(w, r, name, h.started, bytes.NewReader(data))
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			return strings.ReplaceAll(strings.TrimSpace(params), " ", "") != "q=0"
		}
	}
	return false
}

// compressible reports whether a file is text, which gzip shrinks (images are
// compressed already).
func compressible(name string) bool {
	t := contentType(name)
	return strings.HasPrefix(t, "text/") || t == "image/svg+xml" || strings.HasPrefix(t, "application/json") || strings.HasPrefix(t, "application/manifest")
}

// compress gzips data at the best compression: it runs once per file at start.
func compress(data []byte) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression) // the level is valid
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

func (h *handler) serveIndex(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", contentTypes[".html"])
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin")
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	h.serve(w, r, "index.html", h.index)
}

// isRoomPage reports whether p is "/r/{id}" with a plausible room id: one
// non-empty path segment of letters, digits, '-' or '_'.
func isRoomPage(p string) bool {
	id, ok := strings.CutPrefix(p, "/r/")
	if !ok || id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func contentType(name string) string {
	ext := path.Ext(name)
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}
