package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/internal/runs"
)

// maxScheduleEvents is the most events whose schedules the page draws, one
// picture per layout: beyond a few hundred, boxes no longer read.
const maxScheduleEvents = 300

// maxLatencyEvents is the most events whose latency picture the page draws,
// as konvoy -plot does; beyond, the latency table stands alone.
const maxLatencyEvents = 2000

// maxPictureLayouts is the most layouts the rounds and latency pictures
// draw, a line each: package chart's Rounds and Latency draw at most 12
// series, beyond which lines and colours no longer read. A view of more
// gets the tables, and a note in place of those pictures.
const maxPictureLayouts = 12

// union returns the distinct counts of a and b.
func union(a, b []int) []int {
	return slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(a), b...))))
}

// roundsCounts are the consumer counts of the page's rounds picture,
// besides those the query gives, as in the lesson's picture.
var roundsCounts = []int{1, 2, 3, 4, 5, 6, 7, 8}

// pageLayouts are the layouts the page offers, by the names -layouts takes;
// a trace that records partitions has recordedBox too.
var pageLayouts = []string{"free", "convoy", "line-convoy", "version-stamp", "selective-convoy", "partitioned", "resequencer"}

// uploadFields are the trace flags the upload form asks for, with a hint
// each; the rest can be given in the query.
var uploadFields = []struct{ Name, Hint string }{
	{"steps", "the ordered statuses, step 1 first, such as accepted,transfer,delivered"},
	{"history", "statuses that only append to history (step 0)"},
	{"key", "the key column (default key)"},
	{"line", "the line column (default line)"},
	{"status", "the status column (default status)"},
	{"step", "the step column, used instead of the status when present (default step)"},
	{"duration", "the duration column (default duration)"},
	{"at", "the arrival column (default at)"},
	{"unit", "one round's length when durations have units, such as 100ms"},
}

// page is what the page's template shows.
type page struct {
	Title      string
	Summary    string
	Error      string
	Layouts    []choice
	Policies   []choice
	Consumers  int
	Partition  string  // -partitions as given, or ""
	Keep       []field // the query's parameters the controls do not show, kept as hidden fields after them
	Upload     []field // the upload form's trace flags
	RunKeep    []field // the view's run flags, kept by an upload
	MaxUpload  int64   // bytes
	Measures   *table  // the report's first table
	Latency    *table  // wait and response percentiles by layout
	Rounds     template.HTML
	Schedules  []template.HTML
	LatencyPic template.HTML
	Notes      []string
	Command    string // the command line that prints the API's answer
	API        string // the API's URL for the view
	Text       string // a trace's text report
}

// choice is a check box or an option of a select.
type choice struct {
	Name    string
	Checked bool
}

// field is a form field: a flag's name, its value and a hint.
type field struct{ Name, Value, Hint string }

// table is an HTML table: a caption, a header row and rows whose first
// cell is a header.
type table struct {
	Caption string
	Head    []string
	Rows    [][]string
}

// handlePage answers GET / with the page of the query's view. A query with
// a parameter given more than once, as a form's check boxes send it, or
// empty, is redirected to its short form, so that the address bar holds a
// link that reads as the command line does; unless the short form, whose
// escapes may make it longer, is beyond the 8 KiB the server takes: then
// the page says so, as its links to the view would be refused.
func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	q, err := readQuery(r)
	var req request
	if err == nil {
		req, err = parseQuery(q)
	}
	if canonical := encode(req.query); err == nil && !short(q) && len(canonical) <= maxQueryBytes {
		link := "/"
		if canonical != "" {
			link += "?" + canonical
		}
		http.Redirect(w, r, link, http.StatusSeeOther)
		return
	}
	p := s.newPage(req)
	var v parsedView
	if err == nil {
		v, err = s.fill(r, req, p)
	}
	p.setControls(req.query, v)
	code := http.StatusOK
	if err != nil {
		p.Error, code = report.PageWords(err.Error(), report.UserText(err)...), status(err)
	}
	s.render(w, code, p)
}

// short tells whether q gives each parameter once, and not empty.
func short(q url.Values) bool {
	for _, v := range q {
		if len(v) != 1 || strings.TrimSpace(v[0]) == "" {
			return false
		}
	}
	return true
}

// newPage is the page of req before any run, its controls not yet set
// (see setControls).
func (s *Server) newPage(req request) *page {
	p := &page{Title: "konvoy: the lesson", MaxUpload: s.cfg.MaxUpload, Consumers: 4}
	if s.cfg.Events != "" {
		p.Title = "konvoy: " + s.cfg.Events
	}
	for _, name := range sortedKeys(req.query) {
		v := req.query.Get(name)
		if slices.Contains(RunFlags, name) {
			p.RunKeep = append(p.RunKeep, field{Name: name, Value: v})
		}
		if !slices.Contains([]string{"layouts", "policy", "consumers", "partitions"}, name) {
			p.Keep = append(p.Keep, field{Name: name, Value: v})
		}
	}
	for _, f := range uploadFields {
		p.Upload = append(p.Upload, field{Name: f.Name, Value: req.query.Get(f.Name), Hint: f.Hint})
	}
	return p
}

// keepTraceFlags adds to the upload form a field for each of q's trace
// flags that it has none for (-round, -seed...), for a refused upload
// (see refusedPage): sent again, the form sends every flag the upload was
// sent with, and each shows, for the user to change (one too long for the
// link, say). A view's page does not: its trace flags would apply to
// another trace uploaded from it.
func (p *page) keepTraceFlags(q url.Values) {
	for _, name := range sortedKeys(q) {
		if slices.Contains(TraceFlags, name) && !slices.ContainsFunc(p.Upload, func(f field) bool { return f.Name == name }) &&
			!slices.ContainsFunc(p.RunKeep, func(f field) bool { return f.Name == name }) {
			p.Upload = append(p.Upload, field{Name: name, Value: q.Get(name), Hint: "as the refused upload was sent"})
		}
	}
}

// recordedBox is the check box of the layout recorded, which the page
// offers for a trace that records partitions (see setLayouts).
const recordedBox = "recorded"

// parsedView is what the command's parser and the runs tell of a page's
// view that its query may not: the consumer counts, a trace's 4, 1, 2 and
// 8 when the query names none, and whether the trace records partitions,
// which -layouts all then runs under recorded too. Its zero value, when
// the query does not parse, leaves the query to tell.
type parsedView struct {
	counts      []int
	partitioned bool
}

// setControls sets the page's layouts, policy, consumers and partitions
// controls to the view of q, whose runs v tells of, and keeps as hidden
// fields what they cannot show, so that the controls, submitted as they
// are, ask for the view the page shows: the layouts without a check box
// (partitioned:3), the consumer counts after the first (the number shows
// one; the hidden fields follow it in the form, so that it stays the
// first). A policy other than one of the options (a list, or all) is an
// option of its own, selected. The partitions stay as q gives them: with
// every count kept, none given is again the largest count's.
func (p *page) setControls(q url.Values, v parsedView) {
	p.setLayouts(q.Get("layouts"), v.partitioned)
	policy := q.Get("policy")
	for _, pol := range konvoy.Policies() {
		p.Policies = append(p.Policies, choice{pol.String(), pol.String() == policy})
	}
	if policy != "" && !slices.ContainsFunc(p.Policies, func(c choice) bool { return c.Checked }) {
		p.Policies = append(p.Policies, choice{policy, true})
	}
	consumers := strings.Split(q.Get("consumers"), ",")
	if v.counts != nil {
		consumers = nil
		for _, c := range v.counts {
			consumers = append(consumers, strconv.Itoa(c))
		}
	}
	if n, err := strconv.Atoi(consumers[0]); err == nil && n >= 1 && n <= maxConsumers {
		p.Consumers = n
	}
	for _, c := range consumers[1:] {
		p.Keep = append(p.Keep, field{Name: "consumers", Value: c})
	}
	p.Partition = q.Get("partitions")
}

// setLayouts sets the layouts' check boxes to the -layouts value v (the
// command's default when empty) and keeps the layouts without one as
// hidden fields. A trace that records partitions (partitioned) has a box
// for recorded too, as has a view that names it: "all" then checks every
// box, recorded included, which names the same layouts as all does.
func (p *page) setLayouts(v string, partitioned bool) {
	names := strings.Split(v, ",")
	if v == "" {
		names = pageLayouts[:4]
	}
	boxes := pageLayouts
	if partitioned || slices.Contains(names, recordedBox) {
		boxes = append(slices.Clone(pageLayouts), recordedBox)
	}
	all := slices.Contains(names, "all")
	for _, l := range boxes {
		p.Layouts = append(p.Layouts, choice{l, all || slices.Contains(names, l)})
	}
	for _, l := range names {
		if !slices.Contains(boxes, l) && l != "all" {
			p.Keep = append(p.Keep, field{Name: "layouts", Value: l})
		}
	}
}

// fill makes the runs of req and sets the page's tables and pictures; it
// returns what the parser and the runs tell of the view, as far as they
// got.
func (s *Server) fill(r *http.Request, req request, p *page) (parsedView, error) {
	src, err := s.source(req)
	if err != nil {
		return parsedView{}, err
	}
	if src.upload != nil {
		p.Title = "konvoy: " + src.upload.name
	}
	o, err := s.options(req, src)
	if err != nil {
		return parsedView{}, err
	}
	v := parsedView{counts: o.Consumers}
	args := src.argsFor(req)
	p.Command = command(args)
	p.API = apiPath
	if q := encode(req.query); len(q) > maxQueryBytes {
		// The page's links and form would ask for a view the server refuses.
		return parsedView{}, errorf(http.StatusRequestURITooLong, "konvoy serve: the view's link, its fields %%-escaped, has %d bytes; want at most %d: shorten them", len(q), maxQueryBytes)
	} else if q != "" {
		p.API += "?" + q
	}
	o.More = roundsCounts // unless they make too many runs (see checkRuns)
	var sample []konvoy.Event
	o.Add = func(e konvoy.Event) {
		if len(sample) <= maxLatencyEvents {
			sample = append(sample, e)
		}
	}
	done, err := s.turn(r.Context()) // for the runs and the pictures both
	if err != nil {
		return v, err
	}
	defer done()
	t, err := s.runIn(r.Context(), src, o)
	if err != nil {
		return v, err
	}
	v.partitioned = t.Partitioned
	p.Summary = summary(t, src)
	p.Measures, p.Latency = measures(t), latencies(t)
	if len(t.Policies) > 1 {
		p.Notes = append(p.Notes, fmt.Sprintf("The first table and the pictures are of %s dispatch, the first policy this view runs; the latency table has every policy's figures, and the API's answer every run's.", t.Policies[0]))
	}
	if !src.lesson { // as konvoy prints it: with the latency table when -policy is given
		p.Text = report.TraceText(t, report.TraceOptions{Latency: lastValue(args, "policy") != ""})
	}
	s.pictures(r.Context(), p, t, o, sample)
	// Said of a rounds picture drawn alone: one left out has a note of its own.
	if n := runCount(len(t.Layouts), len(t.Policies), t.Counts, roundsCounts); n > maxRuns && p.Rounds != "" {
		p.Notes = slices.Insert(p.Notes, 0, fmt.Sprintf("The rounds picture is drawn at the consumer counts asked for alone: at 1 to 8 as well this view would make %d runs, and the server makes at most %d a request.", n, maxRuns))
	}
	return v, nil
}

// summary is the page's line under its title: what was run.
func summary(t *report.Trace, src *source) string {
	what := "The lesson's events"
	if !src.lesson {
		what = "The trace " + t.Name
	}
	return fmt.Sprintf("%s: %s, %s, %s, %s, work %s, %s dispatch", what, report.Plural(t.Stats.Events(), "event", "events"),
		report.Plural(t.Stats.Keys(), "key", "keys"), report.Plural(t.Stats.Lines(), "line", "lines"),
		report.Plural(t.Consumers, "consumer", "consumers"), report.Plural(t.Run(0, 0, t.Consumers).Work, "round", "rounds"), t.Policies[0])
}

// measures is the report's first table: each layout's measures at the
// first consumer count under the first policy.
func measures(t *report.Trace) *table {
	tb := &table{Caption: fmt.Sprintf("Every layout at %s, %s dispatch", report.Plural(t.Consumers, "consumer", "consumers"), t.Policies[0]), Head: []string{"measure"}}
	rows := []struct {
		name string
		of   func(r konvoy.Result) string
	}{
		{"rounds", func(r konvoy.Result) string { return strconv.Itoa(r.Rounds) }},
		{"parallelism", func(r konvoy.Result) string { return report.FormatAmount(r.Parallelism()) }},
		{"backward writes", func(r konvoy.Result) string { return strconv.Itoa(r.BackwardWrites) }},
		{"wrong final states", func(r konvoy.Result) string { return strconv.Itoa(r.WrongFinal) }},
		{"skipped events", func(r konvoy.Result) string { return strconv.Itoa(r.Skipped) }},
		{"buffered", func(r konvoy.Result) string { return strconv.Itoa(r.Buffered) }},
		{"lanes", func(r konvoy.Result) string { return strconv.Itoa(r.Lanes) }},
		{"heaviest lane", func(r konvoy.Result) string { return strconv.Itoa(r.HeaviestLane) }},
	}
	for _, l := range t.Layouts {
		tb.Head = append(tb.Head, l.String())
	}
	for _, row := range rows {
		cells := []string{row.name}
		for li := range t.Layouts {
			cells = append(cells, row.of(t.Run(li, 0, t.Consumers)))
		}
		tb.Rows = append(tb.Rows, cells)
	}
	return tb
}

// latencies is the table of each layout's wait and response percentiles at
// the first consumer count, a row per layout and policy, as the command's
// latency table has: a view of more than one policy has a policy column.
func latencies(t *report.Trace) *table {
	tb := &table{Caption: fmt.Sprintf("Latency in rounds at %s, %s dispatch: wait (arrival to start) and response (arrival to finish)", report.Plural(t.Consumers, "consumer", "consumers"), t.Policies[0]),
		Head: []string{"layout", "wait p50", "wait p95", "wait p99", "wait max", "response p50", "response p95", "response p99", "response max"}}
	many := len(t.Policies) > 1
	if many {
		tb.Caption = fmt.Sprintf("Latency in rounds at %s, by layout and dispatch policy: wait (arrival to start) and response (arrival to finish)", report.Plural(t.Consumers, "consumer", "consumers"))
		tb.Head = slices.Insert(tb.Head, 1, "policy")
	}
	for li, l := range t.Layouts {
		for pi, pol := range t.Policies {
			r := t.Run(li, pi, t.Consumers)
			row := []string{l.String(), strconv.Itoa(r.Wait.P50), strconv.Itoa(r.Wait.P95), strconv.Itoa(r.Wait.P99), strconv.Itoa(r.Wait.Max),
				strconv.Itoa(r.Response.P50), strconv.Itoa(r.Response.P95), strconv.Itoa(r.Response.P99), strconv.Itoa(r.Response.Max)}
			if many {
				row = slices.Insert(row, 1, pol.String())
			}
			tb.Rows = append(tb.Rows, row)
		}
	}
	return tb
}

// pictures draws the page's pictures: rounds against consumers for at most
// maxPictureLayouts layouts, and for a run small enough, the latencies
// and each layout's schedule (again for at most maxPictureLayouts
// layouts, the first), from the events kept in sample, run again keeping
// their slots. A picture left out is told in a note, one package chart
// refuses too (see draw): the tables stand alone, as they do for a view
// too large to draw. It draws in the turn its caller took for the runs
// (see Server.turn), and draws no more once ctx ends: a request gone
// takes no more of the server's time.
func (s *Server) pictures(ctx context.Context, p *page, t *report.Trace, o runs.Options, sample []konvoy.Event) {
	if ctx.Err() != nil {
		return // the request ended: no page is sent
	}
	lines := len(t.Layouts) <= maxPictureLayouts // the rounds and latency pictures draw a line for each
	if lines {
		counts := t.Simulated
		work, series := chart.RoundsOf(t.Layouts, counts, func(li, ci int) konvoy.Result { return t.Run(li, 0, counts[ci]) })
		p.Rounds, _ = p.draw("The rounds picture is", func(w io.Writer) error { return chart.Rounds(w, chart.SVG, work, series) })
	} else {
		p.Notes = append(p.Notes, fmt.Sprintf("The rounds and latency pictures are drawn for at most %d layouts, a line each; this view has %d: the tables give their figures.",
			maxPictureLayouts, len(t.Layouts)))
	}
	events := t.Stats.Events()
	if events > maxLatencyEvents {
		p.Notes = append(p.Notes, fmt.Sprintf("Schedules are drawn for runs of at most %d events, the latency picture for at most %d; this one has %d: the tables give its figures.",
			maxScheduleEvents, maxLatencyEvents, events))
		return
	}
	drawn := t.Layouts[:min(len(t.Layouts), maxPictureLayouts)]
	c, policy := t.Consumers, t.Policies[0]
	if ctx.Err() != nil {
		return
	}
	lat, err := chart.SimulateLatency(sample, drawn, c, report.Dispatch(policy, o.Assignor, konvoy.WithResequencer(o.Reseq))...)
	if err != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("The latency picture and the schedules are left out: %v; the tables give their figures.", err))
		return
	}
	if lines {
		p.LatencyPic, _ = p.draw("The latency picture is", func(w io.Writer) error { return chart.Latency(w, chart.SVG, lat) })
	}
	if events > maxScheduleEvents {
		p.Notes = append(p.Notes, fmt.Sprintf("Schedules are drawn for runs of at most %d events; this one has %d.", maxScheduleEvents, events))
		return
	}
	if len(drawn) < len(t.Layouts) {
		p.Notes = append(p.Notes, fmt.Sprintf("Schedules are drawn for at most %d layouts, the first; this view has %d.", maxPictureLayouts, len(t.Layouts)))
	}
	for i, l := range drawn {
		if ctx.Err() != nil {
			return
		}
		title := fmt.Sprintf("The schedule under %s, %s, %s dispatch", l, report.Plural(c, "consumer", "consumers"), policy)
		pic, ok := p.draw("The schedules are", func(w io.Writer) error { return chart.Schedule(w, chart.SVG, title, lat[i].Slots, c) })
		if !ok {
			p.Schedules = nil
			return
		}
		p.Schedules = append(p.Schedules, pic)
	}
}

// draw is the picture that draw makes, and true; or, when package chart
// refuses to draw it (a run's figures beyond the 2^40 rounds it draws,
// say), nothing and false, with a note in its place that begins with
// what, such as "The rounds picture is": the runs ran, and the tables
// give their figures.
func (p *page) draw(what string, draw func(io.Writer) error) (template.HTML, bool) {
	pic, err := svg(draw)
	if err != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("%s left out: %v; the tables give the figures.", what, err))
		return "", false
	}
	return pic, true
}

// svg is the picture draw writes, from its root element on, to be shown
// inline. Package chart escapes every text it writes, the trace's keys
// among them, so the picture is safe to show as it is.
func svg(draw func(io.Writer) error) (template.HTML, error) {
	var b bytes.Buffer
	if err := draw(&b); err != nil {
		return "", err
	}
	out := b.Bytes()
	if i := bytes.Index(out, []byte("<svg ")); i >= 0 {
		out = out[i:]
	}
	return template.HTML(out), nil //nolint: the chart package escapes its text
}

// command is the command line that prints what /api/report answers for
// args, "-name=value" each. Every flag is written with '=', as package flag
// reads a boolean flag's value only so (-reject-old=true; "-reject-old
// true" would leave "true" as an argument). A flag args give more than
// once, a served file's and a view's, is written once, its last value, the
// one the API takes: the command refuses a flag given twice.
func command(args []string) string {
	parts := []string{"konvoy", "-format=json"}
	for i, a := range args {
		name, v, _ := strings.Cut(a, "=")
		if slices.ContainsFunc(args[i+1:], func(b string) bool { return strings.HasPrefix(b, name+"=") }) {
			continue // given again later
		}
		parts = append(parts, name+"="+shellQuote(v))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes v for a POSIX shell when it needs it: in single
// quotes; or, when v is not UTF-8 text, in dollar-single quotes
// (POSIX.1-2024, bash, zsh and ksh; not dash), each byte that is not part
// of UTF-8 text written \xHH, as is a hexadecimal digit right after one,
// which the escape would otherwise take in: so that the command, copied
// from the page, which a browser shows as UTF-8, still names v's bytes (a
// file's name, say; found by a review).
func shellQuote(v string) string {
	if v != "" && strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,.:_-/+") == "" {
		return v
	}
	if utf8.ValidString(v) {
		return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	escaped := false // the last byte written was \xHH
	for len(v) > 0 {
		r, n := utf8.DecodeRuneInString(v)
		switch {
		case r == utf8.RuneError && n == 1, escaped && strings.ContainsRune("0123456789abcdefABCDEF", r):
			fmt.Fprintf(&b, `\x%02x`, v[0])
			escaped = true
			v = v[1:]
			continue
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteString(v[:n])
		}
		escaped = false
		v = v[n:]
	}
	b.WriteString("'")
	return b.String()
}

// render writes p with the status code.
func (s *Server) render(w http.ResponseWriter, code int, p *page) {
	var b bytes.Buffer
	if err := s.page.Execute(&b, p); err != nil {
		http.Error(w, "konvoy serve: the page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	w.Write(b.Bytes())
}

// jsonString is s as a JSON string.
func jsonString(s string) (string, error) {
	b, err := json.Marshal(s)
	return string(b), err
}
