package serve

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime/multipart"
	"mime/quotedprintable"
	"net/http"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sirali-konvoy/konvoy/internal/report"
)

// uploadField is the upload form's field for the trace's file: the
// command's flag, though the server never takes a file's name from it.
const uploadField = "events"

// maxFormBytes is what an upload may send beside the trace: its form's
// fields and the multipart framing.
const maxFormBytes = 64 << 10

// handleUpload answers POST /upload, a multipart form of the trace (field
// events) and trace and run flags by name. The trace is read as it comes,
// within Config.MaxUpload, into memory and never to disk, kept (see
// uploads), and the answer redirects to the page of the trace under the
// form's flags. At most maxReading uploads are read at once, so that
// reading takes at most that many times MaxUpload; others wait their turn. Too large an upload, or a malformed one, gets the page
// with the reason and a 4xx status.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) {
	q, err := s.readUpload(w, r)
	if err != nil {
		closeUnread(w, r) // the rest of a form refused is not read
		s.render(w, status(err), s.refusedPage(q, err))
		return
	}
	http.Redirect(w, r, "/?"+encode(q), http.StatusSeeOther)
}

// refusedPage is the page of an upload refused with err, sent with the
// flags q. It shows no trace: its controls are set to the view of q's run
// flags, which, submitted as they are, ask for that view again, without
// the trace flags that would then be an error; its upload form has q's
// trace flags, and keeps its run flags, for the trace to be sent again.
func (s *Server) refusedPage(q url.Values, err error) *page {
	runFlags := url.Values{}
	for name, v := range q {
		if slices.Contains(RunFlags, name) {
			runFlags[name] = v
		}
	}
	view, _ := parseQuery(runFlags)
	all, _ := parseQuery(q)
	p := s.newPage(view)
	for i, f := range p.Upload {
		p.Upload[i].Value = all.query.Get(f.Name)
	}
	p.keepTraceFlags(all.query)
	p.setControls(view.query, parsedView{})
	p.Error = report.PageWords(err.Error(), report.UserText(err)...)
	return p
}

// readUpload reads the upload of r, keeps its trace, and returns the query
// of the page to show: the flags of r's query and of its form, a flag
// given in both taken as a list, as the page takes a parameter given
// twice, and the trace's key. A query the page would refuse (see
// parseQuery), or one that names a trace, is refused before the upload is
// read. A trace refused for itself (too large, or not to be decompressed)
// is refused once the rest of the form is read, so that the query holds
// the fields sent after it too, as the page's own form sends them.
func (s *Server) readUpload(w http.ResponseWriter, r *http.Request) (url.Values, error) {
	q, err := uploadQuery(r)
	if err != nil {
		return q, err
	}
	if err := s.awaitReading(r.Context()); err != nil {
		return q, err
	}
	defer func() { <-s.reading }()
	body := &limitedBody{r: http.MaxBytesReader(w, r.Body, s.cfg.MaxUpload+maxFormBytes),
		pace: pace{rc: http.NewResponseController(w), start: time.Now(), grace: s.uploadGrace, rate: s.uploadRate}}
	r.Body = body
	mr, err := r.MultipartReader()
	if err != nil {
		return q, errorf(http.StatusBadRequest, "konvoy serve: an upload is a multipart/form-data form: %v", err)
	}
	f := &form{s: s, body: body, q: q, length: r.ContentLength}
	if err := f.read(mr); err != nil {
		return q, err
	}
	return q, s.keep(f.trace, q)
}

// form is an upload's form as it is read: its fields go to q, its trace
// to trace, or, refused, its error to refused.
type form struct {
	s          *Server
	body       *limitedBody
	q          url.Values
	trace      *upload
	sent       bool  // whether the form has sent a trace, refused or not
	refused    error // the trace's error, given once the rest of the form is read
	traceBytes int64 // the bytes of the trace's part, as sent, its header and framing left out
	length     int64 // the request's Content-Length, -1 when unknown
}

// read reads the parts of mr, the form's, until its end or an error,
// which is the trace's refusal when there is one: every byte of body
// outside the trace's part, its fields, part headers and boundaries,
// counts towards maxFormBytes.
func (f *form) read(mr *multipart.Reader) error {
	for {
		part, err := mr.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return f.failed(f.s.uploadErr(err, f.body, "", nil))
		}
		if err := f.readPart(part); err != nil {
			return f.failed(err)
		}
		// The multipart reader may hold up to peekBufferSize bytes read
		// from the body but not yet parsed, the trace's among them.
		if f.body.n-f.traceBytes-peekBufferSize > maxFormBytes {
			return f.failed(formTooLarge())
		}
	}
	if f.refused == nil && f.body.n-f.traceBytes > maxFormBytes {
		return formTooLarge()
	}
	return f.refused
}

// peekBufferSize is how many bytes of the body a multipart.Reader reads
// ahead, at most (its bufio.Reader's size).
const peekBufferSize = 4096

// failed is the error of a form that could not be read to its end for
// err: the trace's own refusal when it has one, the first error found.
func (f *form) failed(err error) error {
	if f.refused != nil {
		return f.refused
	}
	return err
}

// readPart reads part, the trace or a field.
func (f *form) readPart(part *multipart.Part) error {
	name := part.FormName()
	switch {
	case name == uploadField && f.sent:
		return errorf(http.StatusBadRequest, "konvoy serve: the form has two traces; want one file in its field %s", uploadField)
	case name == uploadField:
		f.sent = true
		return f.readTrace(part)
	case slices.Contains(RunFlags, name) || slices.Contains(TraceFlags, name):
		return f.s.readField(decoded(part, part), name, f.q, f.body)
	}
	return errorf(http.StatusBadRequest, "konvoy serve: the form has an unknown field %q; want events (the trace), or a flag such as steps", name)
}

// readTrace reads the trace of part, counting the bytes it sends. A trace
// the server refuses for itself has its error kept in f.refused, the
// rest of its part read and let go, for the fields after it to be read;
// an error reading the body ends the form.
func (f *form) readTrace(part *multipart.Part) error {
	name := cleanName(part.FileName())
	raw := &countingReader{r: part}
	defer func() { f.traceBytes += raw.n }()
	src := decoded(raw, part)
	data, err := readAll(io.LimitReader(src, f.s.cfg.MaxUpload+1), min(f.length, f.s.cfg.MaxUpload+1, sizedMost))
	if err != nil {
		return f.s.uploadErr(err, f.body, name, data)
	}
	if int64(len(data)) > f.s.cfg.MaxUpload {
		f.refused = f.s.tooLarge(name, data)
		if _, err := io.Copy(io.Discard, src); err != nil { // within the body's limit
			return f.refused
		}
		return nil
	}
	f.trace, f.refused = f.s.checkTrace(name, data)
	return nil
}

// sizedMost is the most memory readTrace takes for a trace before its
// bytes come (see readAll): a client that says it sends more, and sends
// nothing, takes no more of it.
const sizedMost = 64 << 20

// readAll reads r to its end, as io.ReadAll does, into a buffer of size
// bytes first (a request's Content-Length, which holds the trace, within
// the most a trace may take and sizedMost; 512 when it is not above 0):
// so that an upload that says its length takes that much memory as it is
// read, once, where io.ReadAll's buffer, as it grows, takes up to twice
// the trace for a moment, which the room for uploads (UploadRoom) does not
// count. A body longer than it said, or of no length said, grows as append
// grows it.
func readAll(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, max(size, 512))
	var more [512]byte // a read once b is full: its end, or more than was said
	for {
		full := len(b) == cap(b)
		into := b[len(b):cap(b)]
		if full {
			into = more[:]
		}
		n, err := r.Read(into)
		if full {
			b = append(b, more[:n]...)
		} else {
			b = b[:len(b)+n]
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// decoded is r, the content of part, decoded as multipart.Reader.NextPart
// decodes a part: from quoted-printable when its header says so. The form
// is read with NextRawPart, so that the bytes the trace's part sends can
// be counted.
func decoded(r io.Reader, part *multipart.Part) io.Reader {
	if strings.EqualFold(part.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		return quotedprintable.NewReader(r)
	}
	return r
}

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// keep keeps the upload u, sent with the flags q, and sets q's trace to
// its key; or returns the error of a form without a trace, or one whose
// flags make a link to the trace's page that the server would refuse.
func (s *Server) keep(u *upload, q url.Values) error {
	if u == nil {
		return errorf(http.StatusBadRequest, "konvoy serve: the form has no trace: choose a CSV or JSON Lines file to upload")
	}
	q.Set(traceParam, strings.Repeat("0", uploadKeyBytes))
	if n := len(encode(q)); n > maxQueryBytes {
		q.Del(traceParam)
		return errorf(http.StatusRequestEntityTooLarge, "konvoy serve: the form's fields make a link of %d bytes to the trace's page; want at most %d: shorten them", n, maxQueryBytes)
	}
	q.Set(traceParam, s.uploads.add(u))
	return nil
}

// uploadQuery is the flags of the query of r, a POST /upload, read as the
// page reads its own, or a usage error (400): for a query the page would
// refuse, or one that names a trace, which the upload is.
func uploadQuery(r *http.Request) (url.Values, error) {
	q, err := readQuery(r)
	if err != nil {
		return url.Values{}, err
	}
	req, err := parseQuery(q)
	if err == nil && req.trace != "" {
		err = errorf(http.StatusBadRequest, "konvoy serve: an upload's query names trace %s; want no trace but the form's file, in its field %s", req.trace, uploadField)
	}
	if err != nil {
		return url.Values{}, err
	}
	return req.query, nil
}

// readField adds the form's field name, read from part of body, to q
// unless it is blank: each field holds at most maxFieldBytes (the form
// reader bounds them all, with their framing, by maxFormBytes).
func (s *Server) readField(part io.Reader, name string, q url.Values, body *limitedBody) error {
	v, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
	if err != nil {
		return s.uploadErr(err, body, "", nil)
	}
	if len(v) > maxFieldBytes {
		return errorf(http.StatusRequestEntityTooLarge, "konvoy serve: the form's field %s has more than %d bytes", name, maxFieldBytes)
	}
	if !utf8.Valid(v) { // as a query's value (see parseQuery)
		return errorf(http.StatusBadRequest, "konvoy serve: the form's field %s is %q: want UTF-8 text", name, v)
	}
	if v := strings.TrimSpace(string(v)); v != "" {
		q.Add(name, v)
	}
	return nil
}

// awaitReading takes a token to read an upload, waiting its turn while
// maxReading uploads are read (each takes up to MaxUpload of memory), or
// returns the error of a request that ended meanwhile, or that waited
// readingWait, 503: uploads sent slowly may hold the tokens up to
// readTimeout, and a client waiting behind them, or gone (net/http tells
// no handler that a client whose body it has not read went away), would
// otherwise hold its connection, and a goroutine, as long (found by a
// review).
func (s *Server) awaitReading(ctx context.Context) error {
	wait := time.NewTimer(s.readingWait)
	defer wait.Stop()
	select {
	case s.reading <- struct{}{}:
		return nil
	case <-ctx.Done():
		return errorf(http.StatusServiceUnavailable, "konvoy serve: the upload ended while it waited its turn: %v", ctx.Err())
	case <-wait.C:
		return errorf(http.StatusServiceUnavailable, "konvoy serve: the server reads %d uploads at once, and reads that many now, none of which ended within %v: send the trace again in a while", maxReading, s.readingWait)
	}
}

// checkTrace is the upload of data, the trace named name, read within
// Config.MaxUpload: a gzip bomb is refused now, in the time it takes to
// decompress the most the server reads, not once runs have taken it.
func (s *Server) checkTrace(name string, data []byte) (*upload, error) {
	src, closeSrc, err := decompressed(name, bytes.NewReader(data), inflation*s.cfg.MaxUpload, func() {})
	if err != nil {
		return nil, traceErrorf(name, http.StatusBadRequest, "konvoy serve: %v", err)
	}
	defer closeSrc()
	if _, err := io.Copy(io.Discard, src); err != nil {
		if he := (*httpError)(nil); errors.As(err, &he) {
			return nil, err
		}
		return nil, traceErrorf(name, http.StatusBadRequest, "konvoy serve: %s: %v", name, err)
	}
	return &upload{name: name, data: data}, nil
}

// uploadErr is the error err of reading an upload's body: malformed, or,
// once the body has passed its limit, too large, whatever err the cut
// made of the multipart framing (a header cut short reads as malformed).
// The trace, named trace, whose first bytes read are data, is blamed
// while its part is read, the form beside it otherwise (trace "").
func (s *Server) uploadErr(err error, body *limitedBody, trace string, data []byte) error {
	switch {
	case body.slow:
		return errorf(http.StatusRequestTimeout, "konvoy serve: the upload sent %d bytes in %v, less than %d bytes a second after its first %v: the server reads %d uploads at once, and lets none hold its turn that slowly; send it again over a faster link", body.n, time.Since(body.pace.start).Round(time.Second), body.pace.rate, body.pace.grace, maxReading)
	case !body.over && trace != "":
		return traceErrorf(trace, http.StatusBadRequest, "konvoy serve: %s: reading the upload: %v", trace, err)
	case !body.over:
		return errorf(http.StatusBadRequest, "konvoy serve: reading the upload: %v", err)
	case trace != "":
		return s.tooLarge(trace, data)
	}
	return formTooLarge()
}

// limitedBody is an upload's body, read through http.MaxBytesReader, that
// remembers whether it passed its limit (the multipart reader may turn the
// limit's error into one of its own) or came too slowly (see pace), and
// counts the bytes read.
type limitedBody struct {
	r    io.ReadCloser
	pace pace
	over bool
	slow bool  // a read passed the pace's deadline
	n    int64 // the bytes read
}

func (b *limitedBody) Read(p []byte) (int, error) {
	b.pace.before(b.n)
	n, err := b.r.Read(p)
	b.n += int64(n)
	if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
		b.over = true
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		b.slow = true
	}
	return n, err
}

// pace is the deadline of an upload's reads: after its first grace, an
// upload must have sent rate bytes a second on average, or its reading
// ends (408), and its turn (see awaitReading) goes to the next. Without
// it, an upload sent slowly, or stalled, would hold its turn until the
// server's readTimeout. The deadline is never past start plus
// readTimeout, where the server's own would be. A connection that takes
// no deadline (a test's recorder) is read without one.
type pace struct {
	rc    *http.ResponseController
	start time.Time
	grace time.Duration
	rate  int64 // bytes a second
	set   time.Time
	off   bool // the connection took no deadline
}

// before sets the deadline of the read after n bytes (see paceDeadline).
func (p *pace) before(n int64) {
	if p.off {
		return
	}
	deadline := paceDeadline(p.start, p.grace, p.rate, n)
	if deadline.Equal(p.set) {
		return
	}
	if err := p.rc.SetReadDeadline(deadline); err != nil {
		p.off = true
		return
	}
	p.set = deadline
}

// paceDeadline is the deadline of an upload's read after n bytes, the
// upload read from start on: start, plus grace, plus the time n bytes take
// at rate bytes a second, at most start plus readTimeout.
func paceDeadline(start time.Time, grace time.Duration, rate, n int64) time.Time {
	due := readTimeout
	if secs := n / rate; secs < int64(readTimeout/time.Second) { // else past it, and a Duration might overflow
		due = min(due, grace+time.Duration(secs)*time.Second+time.Duration(n%rate)*time.Second/time.Duration(rate))
	}
	return start.Add(due)
}

func (b *limitedBody) Close() error { return b.r.Close() }

// formTooLarge is the error of an upload that sends more than
// maxFormBytes beside its trace, in its fields and their framing.
func formTooLarge() error {
	return errorf(http.StatusRequestEntityTooLarge, "konvoy serve: the form has more than %d KiB beside the trace, in its fields and their framing; send fewer or shorter fields", maxFormBytes>>10)
}

// tooLarge is the error of the trace named trace, whose first bytes are
// data, larger than MaxUpload: it says to gzip it unless it is gzipped
// already (it said so to a .gz: found by a review).
func (s *Server) tooLarge(trace string, data []byte) error {
	advice := "gzip it, or run konvoy -events on it"
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) { // gzip's magic number
		advice = "run konvoy -events on it"
	}
	set := "konvoy serve -max-upload"
	if s.cfg.MaxUploadLowered {
		set = "konvoy serve -max-upload, lowered to fit the memory the server has"
	}
	return traceErrorf(trace, http.StatusRequestEntityTooLarge, "konvoy serve: %s: the trace is larger than %s, the most this server takes (%s); %s",
		trace, megabytes(s.cfg.MaxUpload), set, advice)
}

// cleanName is the name an upload's errors give it: the file name the
// browser sent, without any folder, printable and at most 100 bytes, or
// "upload" when that leaves nothing. It never names a file the server
// opens.
func cleanName(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	name = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return -1
		}
		return r
	}, name)
	ext := path.Ext(strings.TrimSuffix(name, ".gz")) + map[bool]string{true: ".gz"}[strings.HasSuffix(name, ".gz")]
	if len(ext) > 20 {
		ext = "" // no extension, but a long tail after a dot
	}
	if len(name) > 100 { // cut before the extension, which -input auto reads the format from
		stem := strings.TrimSuffix(name, ext)
		stem = stem[:100-len(ext)]
		for !utf8.ValidString(stem) { // a rune cut in two at the end
			stem = stem[:len(stem)-1]
		}
		name = stem + ext
	}
	if name == "" || name == "." || name == "/" || name == "-" {
		return "upload"
	}
	return name
}
