// Package serve is konvoy serve's web server: the lesson's report, or a
// trace's, as a page whose controls are the command's flags, kept in the
// URL's query so that every view is a link; an upload form for a trace of
// one's own; and GET /api/report, which returns what konvoy -format json
// prints for the same flags.
//
// The server turns a request's query into the command-line arguments it
// stands for and has Config.Runs, the command's own parser, read them, so
// that the page, the API and the command cannot disagree on what a flag
// means. Nothing from a request names a file: the trace is the lesson, the
// file konvoy serve was started with, or an upload, kept in memory (see
// uploads). Every value from a trace or a request reaches the page through
// html/template, which escapes it; the pictures are package chart's SVG,
// which escapes its text.
package serve

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy/internal/runs"
)

//go:embed page.html static
var files embed.FS

// DefaultMaxUpload is the largest upload Config.MaxUpload allows unless set:
// 50 MB, some 1.5M events of CSV, many more gzip-compressed.
const DefaultMaxUpload = 50_000_000

// MaxUploadLimit is the most Config.MaxUpload may be: 1 TiB, far beyond
// what the server holds in memory, and within what its sums of sizes can
// count.
const MaxUploadLimit int64 = 1 << 40

// apiPath is the API's path: its answers, errors included, are JSON.
const apiPath = "/api/report"

// MaxRunning is how many requests make their runs at once; others wait
// their turn. A program that bounds the memory of all runs together
// gives each request's (Config.Runs's runs.Options.MaxMemory) a
// MaxRunning-th of it.
const MaxRunning = 2

// Limits beyond the upload's size, which the package documentation states.
const (
	maxHeaderBytes = 64 << 10         // a request's header, its request line included
	headerSlop     = 4096             // what net/http reads beyond http.Server.MaxHeaderBytes
	maxQueryBytes  = 8 << 10          // a request's query
	uploadPath     = "/upload"        // POST here is the one request whose body is read
	maxFieldBytes  = 4 << 10          // an upload form's field beside the file
	inflation      = 4                // an upload's bytes once decompressed, at most, in MaxUpload
	maxConsumers   = 64               // each consumer count of a request: a schedule's rows
	maxRuns        = 100              // (layout, policy, consumers) triples of a request: every layout and policy at 4 counts
	maxReading     = 2                // uploads read into memory at once; others wait their turn
	readingWait    = 10 * time.Second // the longest an upload waits for its turn, then 503
	runTimeout     = 2 * time.Minute  // one request's runs
	headerTimeout  = 10 * time.Second
	readTimeout    = 5 * time.Minute  // an upload of 50 MB at 170 kB/s
	uploadGrace    = 30 * time.Second // an upload's first bytes, before it must keep uploadRate
	uploadRate     = 16 << 10         // bytes a second, on average, an upload sends after uploadGrace, or is cut (408)
	writeTimeout   = 5 * time.Minute  // the runs' time and the page's
	idleTimeout    = 2 * time.Minute
	shutdownGrace  = 10 * time.Second // for requests under way at an interrupt
)

// Config is what a Server serves.
type Config struct {
	// Runs reads the command-line arguments a request stands for
	// ("-layouts=free,convoy", "-events=NAME", trace flags) into the runs
	// to make, or returns the usage error the command would print: konvoy
	// serve passes the command's own parser, given -format json.
	Runs func(args []string) (runs.Options, error)
	// Events is the trace served instead of the lesson, a file read afresh
	// for every request, "" for the lesson. EventsArgs are its trace flags
	// as konvoy serve was given them, "-name=value" each; a request's
	// trace flags come after them and win, and four of them are left out
	// of a request whose flags rule them out (a -partition beside layouts
	// that do not read it, a -duration beside the request's
	// -duration-model: see argsFor).
	Events     string
	EventsArgs []string
	// MaxUpload is the largest upload in bytes, as sent (gzip-compressed
	// or not), at most MaxUploadLimit; 0 for DefaultMaxUpload. A
	// gzip-compressed upload may decompress to 4 times as much, no more.
	MaxUpload int64
	// MaxUploadLowered says that MaxUpload is less than the server was
	// asked for (-max-upload), lowered to fit its memory: a trace refused
	// as too large is then told so, not to raise the flag, which would
	// change nothing.
	MaxUploadLowered bool
	// MaxMemory is the garbage collector's limit of the process, in bytes,
	// which ListenAndServe sets (runs.LimitMemory): the memory of every
	// request's runs together, and of the uploads (UploadRoom); 0 for
	// konvoy.DefaultMaxMemory. A program that lowers a request's runs'
	// memory (Runs's MaxMemory) lowers it too, to MaxRunning times that
	// and UploadRoom: the collector otherwise lets garbage grow to 1 GiB.
	MaxMemory int
}

// Server serves the page, the uploads and the API. It is safe for
// concurrent use.
type Server struct {
	cfg     Config
	mux     *http.ServeMux
	page    *template.Template
	uploads *uploads
	running chan struct{} // a token for each request making runs
	reading chan struct{} // a token for each upload being read
	// readingWait is how long an upload waits for a token (readingWait,
	// the constant, but in tests).
	readingWait time.Duration
	// uploadGrace and uploadRate are an upload's pace (see pace): the
	// constants, but in tests.
	uploadGrace time.Duration
	uploadRate  int64
}

// New returns the server of cfg. It panics with a "konvoy:" prefix when
// cfg.Runs is nil or cfg.MaxUpload is above MaxUploadLimit, a programmer's
// mistake (a command checks its flag first).
func New(cfg Config) *Server {
	if cfg.Runs == nil {
		panic("konvoy: serve.New: Config.Runs is nil")
	}
	if cfg.MaxUpload > MaxUploadLimit {
		panic(fmt.Sprintf("konvoy: serve.New: Config.MaxUpload is %d; want at most %d (MaxUploadLimit)", cfg.MaxUpload, MaxUploadLimit))
	}
	if cfg.MaxUpload <= 0 {
		cfg.MaxUpload = DefaultMaxUpload
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), running: make(chan struct{}, MaxRunning), reading: make(chan struct{}, maxReading),
		readingWait: readingWait, uploadGrace: uploadGrace, uploadRate: uploadRate, uploads: newUploads(maxUploads, maxUploads*cfg.MaxUpload)}
	s.page = template.Must(template.New("page.html").Funcs(template.FuncMap{"megabytes": megabytes}).ParseFS(files, "page.html"))
	static, _ := fs.Sub(files, "static")
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.HandleFunc("GET /{$}", s.handlePage)
	s.mux.HandleFunc(http.MethodPost+" "+uploadPath, s.handleUpload)
	s.mux.HandleFunc("GET "+apiPath, s.handleAPI)
	s.mux.HandleFunc(apiPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, HEAD")
		apiError(w, errorf(http.StatusMethodNotAllowed, "konvoy serve: %s %s; want GET", r.Method, apiPath))
	})
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) { // in JSON, as the API's errors are
		apiError(w, errorf(http.StatusNotFound, "konvoy serve: no %s here; the API is GET %s", r.URL.Path, apiPath))
	})
	return s
}

// ServeHTTP serves r: the page at /, uploads at POST /upload, the API at
// GET /api/report, the page's style and script under /static/. Every
// answer forbids framing and inline scripts, and a query longer than 8 KiB
// is refused with 414, with the API's JSON error at /api/report.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secure(w)
	if r.Method != http.MethodPost || r.URL.Path != uploadPath {
		closeUnread(w, r) // no other request's body is read, "//upload" redirected included
	}
	if len(r.URL.RawQuery) > maxQueryBytes {
		refuse(w, r, errorf(http.StatusRequestURITooLong, "konvoy serve: the query has %d bytes; want at most %d", len(r.URL.RawQuery), maxQueryBytes))
		return
	}
	s.mux.ServeHTTP(w, r)
}

// secure sets the headers every answer carries: no inline scripts, no
// framing, no sniffing of content types, no referrer.
func secure(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// refuse answers r with err, before any handler: in JSON under the API's
// path, /api/, as the API documents its errors, and as text elsewhere.
func refuse(w http.ResponseWriter, r *http.Request, err error) {
	closeUnread(w, r)
	if strings.HasPrefix(r.URL.Path, "/api/") {
		apiError(w, err)
		return
	}
	http.Error(w, err.Error(), status(err))
}

// closeUnread makes the answer to r close the connection when r has a
// body (a Content-Length other than 0, or none) that the answer leaves
// unread, in all or in part: it says so (Connection: close), so that
// net/http answers at once rather than first read up to 256 KiB of the
// body to keep the connection, and it ends the reading of the body (a read
// deadline passed), so that net/http, which still reads that much once
// the answer is sent, closes the connection then too. Else a client that
// sends slowly or stalls would hear nothing, and hold its connection,
// until the read timeout.
func closeUnread(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength != 0 {
		w.Header().Set("Connection", "close")
		_ = http.NewResponseController(w).SetReadDeadline(time.Now()) // a recorder in a test cannot
	}
}

// ListenAndServe serves on addr until ctx is done, then shuts down
// gracefully and returns nil: it stops listening and lets requests under
// way finish, for at most 10 seconds, then closes their connections and
// cancels their contexts, which stops their runs. ready is called with the page's URL once the server
// listens. Requests are limited in header size (64 KiB, the request line
// included: beyond, net/http answers 431 in plain text, on the API's path
// too) and time (10 s for the header, 5 minutes to read and to answer, 2
// minutes of runs). On a
// loopback address, such as the default 127.0.0.1, only requests for a
// loopback host are served (see loopbackOnly). It sets the process's
// garbage collector limit to the runs' memory, Config.MaxMemory, once
// for all requests (runs.LimitMemory), and puts it back on return.
func (s *Server) ListenAndServe(ctx context.Context, addr string, ready func(url string)) error {
	defer runs.LimitMemory(s.cfg.MaxMemory)()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	var h http.Handler = s
	if a, ok := ln.Addr().(*net.TCPAddr); ok && a.IP.IsLoopback() {
		h = loopbackOnly(s)
	}
	base, cancelBase := context.WithCancel(context.Background()) // every request's, cancelled once the grace has passed
	defer cancelBase()
	// net/http reads 4096 bytes of a request's header beyond MaxHeaderBytes
	// (its "bufio slop"): so much less is the documented 64 KiB in all.
	srv := &http.Server{Handler: h, MaxHeaderBytes: maxHeaderBytes - headerSlop, ReadHeaderTimeout: headerTimeout,
		ReadTimeout: readTimeout, WriteTimeout: writeTimeout, IdleTimeout: idleTimeout,
		BaseContext: func(net.Listener) context.Context { return base }}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	ready("http://" + ln.Addr().String() + "/")
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err = srv.Shutdown(stop)
	if errors.Is(err, context.DeadlineExceeded) {
		// The grace has passed: the requests still under way are cut
		// short, their runs stopped, and the server has stopped as asked.
		cancelBase()
		srv.Close() // its listener is closed already; the connections left are closed now
		err = nil
	}
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// loopbackOnly serves through h only the requests whose Host is
// localhost or a loopback address, with any port, and refuses the others
// with 421 Misdirected Request, with the headers every answer carries
// (see secure). A server bound to loopback is meant for
// this machine's browser alone; without the check, a page elsewhere could
// point its own name at 127.0.0.1 (DNS rebinding) and read the reports,
// uploads included, as a page of its own origin.
func loopbackOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if name, _, err := net.SplitHostPort(host); err == nil {
			host = name
		}
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
		if ip := net.ParseIP(host); strings.EqualFold(host, "localhost") || ip != nil && ip.IsLoopback() {
			h.ServeHTTP(w, r)
			return
		}
		secure(w) // as the server's own answers are
		refuse(w, r, errorf(http.StatusMisdirectedRequest, "konvoy serve: the host %q is not this machine's: a server on a loopback address answers localhost or a loopback address (127.0.0.1, [::1]) only", r.Host))
	})
}

// megabytes formats n bytes exactly, as the page and the refusals state
// limits: in MB (10⁶ bytes) with as many decimals as n needs (50 MB, 10.4
// MB, 1.999999 MB), or in bytes below one MB. A limit is never rounded: a
// rounded one may be less than the limit, or more than an upload it
// refuses.
func megabytes(n int64) string {
	if n < 1e6 {
		return fmt.Sprintf("%d bytes", n)
	}
	if n%1e6 == 0 {
		return fmt.Sprintf("%d MB", n/1e6)
	}
	return fmt.Sprintf("%d.%s MB", n/1e6, strings.TrimRight(fmt.Sprintf("%06d", n%1e6), "0"))
}
