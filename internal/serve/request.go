package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/internal/runs"
	"github.com/sirali-konvoy/konvoy/lesson"
	"github.com/sirali-konvoy/konvoy/synth"
)

// RunFlags are the command's flags that a request's query may set, besides
// TraceFlags: which runs to make.
var RunFlags = []string{"layouts", "policy", "assignor", "consumers", "partitions", "start", "reseq-timeout", "reseq-capacity", "reject-old"}

// TraceFlags are the command's flags that say how a trace is read, which a
// request's query, or an upload's form, may set for a trace; for the
// lesson they are an error, as on the command line.
var TraceFlags = []string{"input", "key", "line", "status", "step", "duration", "at", "partition", "steps", "history", "unit", "round",
	"at-format", "reorder", "late", "duration-model", "seed"}

// traceParam is the query parameter that names an upload by its key.
const traceParam = "trace"

// request is what a query asks for: the command-line arguments it stands
// for, in the order of its parameters' names, and the upload it names.
type request struct {
	query url.Values // the query, each parameter once, lists joined by commas, empty values left out
	args  []string   // "-name=value", the trace's own arguments not included
	trace string     // the upload's key, or ""
}

// httpError is an answer other than 200 OK, with the message the page or
// the API shows.
type httpError struct {
	status int
	msg    string
	trace  string // the name of the trace msg names, unquoted, or ""
}

func (e *httpError) Error() string { return e.msg }

// UserText returns the trace's name that e's message writes as the user
// gave it, for report.PageWords to keep as it is.
func (e *httpError) UserText() []string { return []string{e.trace} }

// errorf returns the httpError of status with the message format makes.
func errorf(status int, format string, args ...any) error {
	return &httpError{status: status, msg: fmt.Sprintf(format, args...)}
}

// traceErrorf is errorf for a message that names the trace, trace,
// unquoted, as a file's name is written (see report.UserText).
func traceErrorf(trace string, status int, format string, args ...any) error {
	return &httpError{status, fmt.Sprintf(format, args...), trace}
}

// traceError is err, of the trace named trace: "TRACE: " and err's
// message.
type traceError struct {
	trace string
	err   error
}

func (e *traceError) Error() string { return e.trace + ": " + e.err.Error() }
func (e *traceError) Unwrap() error { return e.err }

// UserText returns the trace's name, as httpError's does.
func (e *traceError) UserText() []string { return []string{e.trace} }

// status is err's HTTP status: an httpError's own (a usage error's 400
// among them), 503 when a request's runs ran out of time or were cut
// short (the server stopping, or the request gone), and 422 for any
// other, a trace's.
func status(err error) int {
	var he *httpError
	switch {
	case errors.As(err, &he):
		return he.status
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return http.StatusServiceUnavailable
	}
	return http.StatusUnprocessableEntity
}

// readQuery is the query of r, or a usage error (400) naming the first
// pair net/url cannot read, such as one with a bad %-escape or pairs
// joined by ';': such a pair is refused, never dropped.
func readQuery(r *http.Request) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return q, errorf(http.StatusBadRequest, "konvoy serve: the query does not parse: %v; want name=value pairs joined by '&', %%-escaped", err)
	}
	return q, nil
}

// parseQuery reads q: command flags by name, a parameter given more than
// once (as a form's check boxes are) joined by commas, in order, each
// value once and empty ones left out (the page's number of consumers, set
// to a count its hidden fields keep, sends that count twice), and trace,
// an upload's key. Any other parameter is an error naming the ones there
// are.
func parseQuery(q url.Values) (request, error) {
	req := request{query: url.Values{}}
	for _, name := range sortedKeys(q) {
		if name != traceParam && !slices.Contains(RunFlags, name) && !slices.Contains(TraceFlags, name) {
			// Whatever its value: ?foo and ?consumer= are as unknown as
			// ?consumer=8 (they were let through: found by a review).
			return req, errorf(http.StatusBadRequest, "konvoy serve: unknown parameter %q; want %s, %s, or trace", name,
				strings.Join(RunFlags, ", "), strings.Join(TraceFlags, ", "))
		}
		var vals []string
		for _, v := range q[name] {
			if !utf8.ValidString(v) {
				// The page, UTF-8, would show it, and send it back, with
				// U+FFFD in its bytes' place (found by a review).
				return req, errorf(http.StatusBadRequest, "konvoy serve: %s is %q: want UTF-8 text", name, v)
			}
			if v = strings.TrimSpace(v); v != "" && !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			continue
		}
		v := strings.Join(vals, ",")
		switch {
		case name == traceParam:
			v = strings.ToLower(v) // hexadecimal digits either way, kept in lower case
			if len(v) != 32 || strings.Trim(v, "0123456789abcdef") != "" {
				return req, errorf(http.StatusBadRequest, "konvoy serve: trace is %q; want the key of an upload, 32 hexadecimal digits", v)
			}
			req.trace = v
		default: // a flag
			req.args = append(req.args, "-"+name+"="+v)
		}
		req.query.Set(name, v)
	}
	return req, nil
}

// sortedKeys are q's names in order.
func sortedKeys(q url.Values) []string {
	var keys []string
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// encode writes q as a query, names in order, commas unescaped so that a
// link reads as the command line does: layouts=free,convoy.
func encode(q url.Values) string {
	var parts []string
	for _, k := range sortedKeys(q) {
		for _, v := range q[k] {
			parts = append(parts, url.QueryEscape(k)+"="+strings.ReplaceAll(url.QueryEscape(v), "%2C", ","))
		}
	}
	return strings.Join(parts, "&")
}

// source is the trace of a request: the lesson, the served file or an
// upload.
type source struct {
	lesson bool
	args   []string    // the arguments that name the trace and say how to read it, before the request's
	open   runs.Source // nil for the lesson
	upload *upload
}

// source returns the trace req asks for.
func (s *Server) source(req request) (*source, error) {
	switch {
	case req.trace != "":
		u := s.uploads.get(req.trace)
		if u == nil && s.uploads.givenUp(req.trace) {
			return nil, errorf(http.StatusGone, "konvoy serve: the upload %s is no longer kept (the server keeps the last %d, in memory): upload the trace again", req.trace, maxUploads)
		}
		if u == nil {
			return nil, errorf(http.StatusNotFound, "konvoy serve: no upload with this key on this server: %s; a link to an upload works on the server it was sent to, while it runs: upload the trace", req.trace)
		}
		return &source{args: []string{"-events=" + u.name}, upload: u, open: func(int) (io.Reader, func(), error) {
			return decompressed(u.name, bytes.NewReader(u.data), inflation*s.cfg.MaxUpload, func() {})
		}}, nil
	case s.cfg.Events != "":
		name := s.cfg.Events
		return &source{args: append([]string{"-events=" + name}, s.cfg.EventsArgs...), open: func(int) (io.Reader, func(), error) {
			f, err := openRegular(name)
			if err != nil {
				return nil, nil, fmt.Errorf("konvoy serve: %w", err)
			}
			return decompressed(name, f, math.MaxInt64, func() { f.Close() })
		}}, nil
	}
	return &source{lesson: true}, nil
}

// openRegular opens the regular file name for reading, or returns an
// error: a pipe or a device now at its path (the command refused one at
// start) would drain, or block the view for ever, holding its run's turn.
// It opens without blocking, as opening a pipe with no writer would, and
// then checks what it opened.
func openRegular(name string) (*os.File, error) {
	f, err := openNonblocking(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s is no longer a regular file but %s: the server reads its trace again for every view", name, kindOf(st.Mode()))
		}
		return nil, err
	}
	return f, nil
}

// kindOf names the kind of file of mode m, not a regular one.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "a file of another kind (" + m.Type().String() + ")"
}

// argsFor returns the command-line arguments that req stands for with
// src: src's, then req's, which win. Four of the served file's flags,
// given to konvoy serve, are left out where req's flags, or what req
// asks, rule them out, as the command refuses the two together: its
// -partition COLUMN, the column the layout recorded reads, for layouts
// that do not name recorded (or all), but not -partition -, which reads
// no column for any view; its -duration beside req's -duration-model,
// and its -duration-model beside req's -duration; its -seed beside a
// duration model whose parameters draw the same every time
// (synth.Dist.Constant), or none. Other pairs the command refuses, such
// as a -steps status the served -history names, fail the view with the
// command's error.
func (src *source) argsFor(req request) []string {
	args := slices.Clone(src.args)
	has := func(args []string, name string) bool {
		return slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-"+name+"=") })
	}
	drop := func(name string) {
		if !has(req.args, name) {
			args = slices.DeleteFunc(args, func(a string) bool { return strings.HasPrefix(a, "-"+name+"=") })
		}
	}
	if !runs.NamesRecorded(req.query.Get("layouts")) && !slices.Contains(args, "-partition="+eventlog.NoColumn) {
		drop("partition") // a column: -partition - reads none, for every view
	}
	switch {
	case has(req.args, "duration-model"):
		drop("duration")
	case has(req.args, "duration"):
		drop("duration-model")
	}
	if model := lastValue(append(slices.Clone(args), req.args...), "duration-model"); model == "" || constant(model) {
		drop("seed")
	}
	return append(args, req.args...)
}

// lastValue returns the value of the last "-name=value" of args, "" when
// none names it.
func lastValue(args []string, name string) string {
	for _, a := range slices.Backward(args) {
		if v, ok := strings.CutPrefix(a, "-"+name+"="); ok {
			return v
		}
	}
	return ""
}

// constant tells whether the duration model a request's arguments name
// draws the same every time; false for one the command will refuse.
func constant(model string) bool {
	d, err := synth.ParseDist(model)
	return err == nil && d.Constant()
}

// options reads the runs that req asks of src with the command's parser,
// and checks them against the server's limits: consumer counts of at most
// 64, at most 100 runs (checkRuns; run checks again once it knows whether
// the layout recorded joins -layouts all).
func (s *Server) options(req request, src *source) (runs.Options, error) {
	args := src.argsFor(req)
	if err := checkConsumers(lastValue(args, "consumers")); err != nil {
		return runs.Options{}, err
	}
	o, err := s.cfg.Runs(args)
	if err != nil {
		return o, errorf(http.StatusBadRequest, "%v", err)
	}
	for _, c := range o.Consumers {
		if c > maxConsumers {
			return o, consumersError(strconv.Itoa(c))
		}
	}
	return o, checkRuns(&o)
}

// checkConsumers returns the server's error for the first whole number of
// list, a -consumers value, that is not 1 to maxConsumers, one too large
// for an int among them, before the command's parser gives its own range
// (found by a review: consumers=0 was told 1 to 2147483647); the rest is
// the parser's to judge.
func checkConsumers(list string) error {
	values := strings.Split(list, ",")
	for _, v := range values { // the command reads the values in turn, to the first it cannot
		v = strings.TrimSpace(v)
		_, err := strconv.ParseInt(v, 0, 0) // as the command reads decimal digits: 99_999 too
		switch digits := strings.TrimLeft(v, "+-"); {
		case len(digits) > 1 && digits[0] == '0' || err != nil && !errors.Is(err, strconv.ErrRange):
			return nil // a leading zero, 0x, or no number: the list is the command's to refuse, as it judges it
		case err != nil: // too large for an int, where the command stops: beyond the server's range
			return consumersError(v)
		}
	}
	for _, v := range values {
		v = strings.TrimSpace(v)
		c, err := strconv.ParseInt(v, 0, 0)
		if err == nil && (c < 1 || c > maxConsumers) || errors.Is(err, strconv.ErrRange) {
			return consumersError(v)
		}
	}
	return nil
}

// consumersError is the error of a request for v consumers, v not 1 to
// maxConsumers.
func consumersError(v string) error {
	return errorf(http.StatusBadRequest, "konvoy serve: -consumers is %s; want 1 to %d: the server runs at most %d consumers (the command runs more)", v, maxConsumers, maxConsumers)
}

// checkRuns checks o's runs against maxRuns: too many are a usage error
// (400), and o.More, the further consumer counts of the page's rounds
// picture, is left out when it would make too many (see runCount).
func checkRuns(o *runs.Options) error {
	if n := runCount(len(o.Layouts), len(o.Policies), o.Consumers, nil); n > maxRuns {
		return errorf(http.StatusBadRequest, "konvoy serve: -layouts, -policy and -consumers ask for %d runs; the server makes at most %d a request (the command makes more)", n, maxRuns)
	}
	if runCount(len(o.Layouts), len(o.Policies), o.Consumers, o.More) > maxRuns {
		o.More = nil
	}
	return nil
}

// runCount is the runs of so many layouts and policies at the consumer
// counts and the further counts more.
func runCount(layouts, policies int, counts, more []int) int {
	return layouts * policies * len(union(counts, more))
}

// turn waits until fewer than MaxRunning requests are making their runs
// and, for a page, drawing its pictures, and returns the function that
// ends this one's turn; or, when ctx ends first, an error (503: the
// server's to retry). A request takes one turn, for its runs and its
// pictures both: a result waits for no turn.
func (s *Server) turn(ctx context.Context) (done func(), err error) {
	select {
	case s.running <- struct{}{}:
		return func() { <-s.running }, nil
	case <-ctx.Done():
		return nil, errorf(http.StatusServiceUnavailable, "konvoy serve: the request ended while it waited its turn: %v", ctx.Err())
	}
}

// run makes the runs of o over src in a turn of its own (see turn), as
// runIn does.
func (s *Server) run(ctx context.Context, src *source, o runs.Options) (*report.Trace, error) {
	done, err := s.turn(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	return s.runIn(ctx, src, o)
}

// runIn makes the runs of o over src, in a turn its caller holds, for at
// most runTimeout, once checked against maxRuns with the layout recorded
// that -layouts all adds on a trace with partitions (see checkRuns). A
// run that alone outgrows the memory the server gives a request is an
// error saying what the page's user can do: no query sets -max-memory,
// which the command's error names.
func (s *Server) runIn(ctx context.Context, src *source, o runs.Options) (*report.Trace, error) {
	ctx, cancel := context.WithTimeout(ctx, runTimeout)
	defer cancel()
	var t *report.Trace
	var err error
	switch {
	case src.lesson:
		// checkRuns leaves out o.More, which its caller may have set since
		// options checked o, when it would make too many runs.
		if err = checkRuns(&o); err == nil {
			t, err = runs.Events(ctx, lesson.Events(), o)
		}
	default:
		if o, err = runs.WithRecorded(ctx, src.open, o); err == nil {
			// The layout recorded that -layouts all adds counts among the
			// runs, checked again now that the trace tells whether it joins.
			if err = checkRuns(&o); err == nil {
				t, err = runs.Trace(ctx, src.open, o)
			}
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, errorf(http.StatusServiceUnavailable, "konvoy serve: the runs took longer than %v, the most a request may take; ask for fewer layouts, policies or consumer counts, or run konvoy -events on the trace", runTimeout)
	}
	if errors.Is(err, konvoy.ErrMemory) {
		return nil, fmt.Errorf("%w; the server gives no request more: run konvoy -events on the trace, which can give its runs more memory (konvoy -help)", err)
	}
	return t, err
}

// decompressed is the trace r, named name, decompressed when it is
// gzip-compressed, and at most most bytes once decompressed; closeRaw
// closes r.
func decompressed(name string, r io.Reader, most int64, closeRaw func()) (io.Reader, func(), error) {
	d, err := eventlog.Decompress(r)
	if err != nil {
		closeRaw()
		return nil, nil, &traceError{name, err}
	}
	return &capped{r: d, left: most, most: most, name: name}, func() { d.Close(); closeRaw() }, nil
}

// capped reads r until left bytes are read, then fails if r has more.
type capped struct {
	r          io.Reader
	left, most int64
	name       string
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, err := io.ReadFull(c.r, one[:]); n == 0 {
			return 0, err
		}
		return 0, traceErrorf(c.name, http.StatusRequestEntityTooLarge, "konvoy serve: %s: decompressed, the trace has more than %s, the most the server reads (%d times -max-upload)",
			c.name, megabytes(c.most), inflation)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// handleAPI answers GET /api/report with what konvoy -format json prints
// for the flags of the query, byte for byte; an error is a JSON object
// {"error": "..."} with a 4xx or 5xx status.
func (s *Server) handleAPI(w http.ResponseWriter, r *http.Request) {
	out, err := s.api(r)
	if err != nil {
		apiError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	out(w) // a client gone is no one to tell
}

// apiError answers an API request with err as the JSON object
// {"error": "..."} and err's status.
func apiError(w http.ResponseWriter, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status(err))
	msg, _ := jsonString(report.PageWords(err.Error(), report.UserText(err)...))
	fmt.Fprintf(w, "{\"error\": %s}\n", msg)
}

// api returns the function that writes the JSON report the query of r
// asks for, a record at a time (see report.WriteTraceJSON).
func (s *Server) api(r *http.Request) (func(io.Writer) error, error) {
	q, err := readQuery(r)
	if err != nil {
		return nil, err
	}
	req, err := parseQuery(q)
	if err != nil {
		return nil, err
	}
	src, err := s.source(req)
	if err != nil {
		return nil, err
	}
	o, err := s.options(req, src)
	if err != nil {
		return nil, err
	}
	t, err := s.run(r.Context(), src, o)
	if err != nil {
		return nil, err
	}
	return report.Render(t, "json", report.TraceOptions{})
}
