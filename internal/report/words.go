package report

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
)

// maxNamedKeys is how many keys a line of the text report names before it
// says how many more there are.
const maxNamedKeys = 10

// plural is "1 thing" or "n things".
func plural(n int, one, many string) string { return amountText(strconv.Itoa(n), one, many) }

// amountText is amount, a number already written as text, and one or
// many after it: "1 round", or "0.5 rounds".
func amountText(amount, one, many string) string {
	if amount == "1" {
		return "1 " + one
	}
	return amount + " " + many
}

// Plural is "1 thing" or "n things", as every count in a report is
// written.
func Plural(n int, one, many string) string { return plural(n, one, many) }

// consumersText is "1 consumer" or "n consumers".
func consumersText(n int) string { return plural(n, "consumer", "consumers") }

// RoundedNote says that rounded durations and arrivals of a trace read with
// one round lasting unit were rounded to whole rounds, as the reports and
// the command's notes put it; unit 0 is a trace of whole rounds.
func RoundedNote(rounded int, unit time.Duration) string {
	return plural(rounded, "duration or arrival", "durations and arrivals") + " rounded to whole rounds" + resolutionNote(unit)
}

// ReadingNotes are what the report says of how the trace was read beyond
// its own content: the durations it did not give, modelled, and the events
// dropped as late.
func ReadingNotes(t *Trace) []string {
	var notes []string
	if t.Modelled != "" {
		notes = append(notes, "durations modelled: each drawn from "+t.Modelled+" rounds, not read from the trace")
	}
	if t.Dropped > 0 {
		notes = append(notes, plural(t.Dropped, "event", "events")+" dropped: each arrived earlier than an event the -reorder window had released (-late drop)")
	}
	if t.StatusesUnused {
		notes = append(notes, "-status, -steps and -history unused: every event's step came from the trace's step column")
	}
	return notes
}

// StatusesUnused says whether r named a status column or statuses
// (-status, -steps, -history) that no event read with it took its step
// from, statused events having taken theirs from one
// (eventlog.Decoder.StatusSteps): what Trace.StatusesUnused holds, and
// ReadingNotes notes. The commands leave r's status column empty unless
// -status names it.
func StatusesUnused(r eventlog.Reader, statused int) bool {
	return (len(r.Steps)+len(r.History) > 0 || r.Columns.Status != "") && statused == 0
}

// resolutionNote is how a report names a round's length.
func resolutionNote(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return " of " + d.String()
}

// policyNote is what a report's first line says of a policy other than the
// lesson's head-of-line.
func policyNote(p konvoy.Policy) string {
	if p == konvoy.HeadOfLine {
		return ""
	}
	return ", policy " + p.String()
}

// keyName is a key, or a lane's name, as a report prints it
// (konvoy.QuoteKey), as the library's plan assumptions name a lane too.
func keyName(k string) string { return konvoy.QuoteKey(k) }

// names lists keys, up to maxNamedKeys of them.
func names(keys []string) string {
	quoted := func(ks []string) string {
		q := make([]string, len(ks))
		for i, k := range ks {
			q[i] = keyName(k)
		}
		return strings.Join(q, ", ")
	}
	if len(keys) <= maxNamedKeys {
		return quoted(keys)
	}
	return fmt.Sprintf("%s and %d more", quoted(keys[:maxNamedKeys]), len(keys)-maxNamedKeys)
}

// laneName is how a report names a lane of layout l: a partition's lane
// by its number, with the word.
func laneName(l konvoy.Layout, lane string) string {
	if l.Partitions() > 0 {
		return "partition " + lane
	}
	return keyName(lane)
}

// Round3 rounds x to three decimals as the text reports print ratios
// (%.3f, multiplier): x's exact value to the nearest, a tie to even, so
// that JSON says 1.062 for 17/16 where the text does (math.Round of
// x·1000 says 1.063); x as it is when it is too large to have any. The
// JSON reports round with it, replay's too.
func Round3(x float64) float64 {
	if math.Abs(x) >= 1e15 || math.IsNaN(x) {
		return x // a float64 this large holds no decimals
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 3, 64), 64) // never fails: FormatFloat writes a number
	return r
}

// formatRate writes a rate in events/s as formatAmount does, or
// "unbounded" for a run that takes no time.
func formatRate(r float64) string {
	if math.IsInf(r, 1) {
		return "unbounded"
	}
	return formatAmount(r)
}

// formatAmount writes x with two decimals; below 0.005, above 0, with two
// significant digits, so that it never reads as 0.00; and from 1e15 on,
// where a float64 holds no decimals, in the shortest exponent form that
// reads back as x (1e+308, not 309 digits). Negative zero, which equals 0,
// is written as 0.00, without a sign.
func formatAmount(x float64) string {
	switch {
	case x == 0:
		return "0.00" // -0 too
	case x > 0 && x < 0.005:
		return strconv.FormatFloat(x, 'g', 2, 64)
	case math.Abs(x) >= 1e15:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// FormatAmount writes x, an amount such as a parallelism, as the text
// reports do (formatAmount): with two decimals, and never as 0 when it is
// above 0, so that a page beside the report reads the same figure.
func FormatAmount(x float64) string { return formatAmount(x) }

// formatAtMost writes x, a most that may not be passed (the keep-up
// budget of rounds), as formatAmount does but rounded down: rounded to the
// nearest, a budget of 20.9996 rounds would read 21.00, which a run of 21
// rounds does not keep. A value up to 16 units in x's last place above it
// counts as x, as the planner counts it (floorNear): that is float64's
// error in the quotient that makes a budget, 7/(7·0.1) reading
// 9.999999999999998 for 10. From 10^12 on, where two decimals pass float64's
// precision (999999999999999.87 is 999999999999999.875, which reads .88)
// and formatAmount writes float64's shortest form from 10^15, which may
// read above x, it writes the whole rounds of x in full, rounded down, as
// the plan's assumptions and the planner do (floorNear: at 10^15 a unit in
// the last place is an eighth of a round); from 2^63, past every run's rounds, four
// significant digits, rounded down (floorDigits).
func formatAtMost(x float64) string {
	switch {
	case x >= 0x1p63 && !math.IsInf(x, 1):
		return floorDigits(x)
	case x >= 1e12 && !math.IsInf(x, 1):
		return strconv.FormatFloat(floorNear(x), 'f', 0, 64) // x may have a fraction, and be a few units in its last place short of a whole number
	case !(x > 0) || x >= 1e15:
	case x < 0.005: // two significant digits, as formatAmount writes them
		x = atMostAt(x, 1-decade(x))
	default:
		x = atMostAt(x, 2)
	}
	return formatAmount(x)
}

// floorDigits writes x, a whole float64 of at least 1000, to four
// significant digits rounded down, as 1.999e+303 for 1.9999999999999997e+303:
// its exact digits, cut after the fourth (the plan's assumptions write a
// budget so too).
func floorDigits(x float64) string {
	s := strconv.FormatFloat(x, 'f', 0, 64)
	return fmt.Sprintf("%s.%se+%02d", s[:1], s[1:4], len(s)-1)
}

// atMostAt is floorAt(x, k), but one unit of 10^−k lower where floorAt's
// slack, 16 units in the last place of x·10^k, passed x by more than 16
// in x's own: near 10^15, 999999999999999.875 read 999999999999999.88.
func atMostAt(x, k float64) float64 {
	m := floorNear(scaleUp(x, k))
	if v := unitsOf(m, k); v-x <= 16*(math.Nextafter(x, math.Inf(1))-x) {
		return v
	}
	return unitsOf(m-1, k)
}

// roundAtMost rounds x, a most that may not be passed, to the digits
// RoundAmount keeps, but down; from 10^12 to 2^63, to whole rounds as the
// planner counts them (floorNear).
func roundAtMost(x float64) float64 {
	switch {
	case x >= 1e12 && x < 0x1p63: // whole rounds, as formatAtMost writes them, where three decimals pass float64's precision
		return floorNear(x)
	case !(x > 0) || x >= 1e15:
		return RoundAmount(x)
	}
	return floorAt(x, max(3, 2-decade(x)))
}

// decade returns ⌊log10 x⌋ for x > 0, for a subnormal x too, whose
// math.Log10 is off by up to a decade on amd64 (5e-324 reads -307.95): x is
// then scaled by 2^100 first.
func decade(x float64) float64 {
	if x < 0x1p-1022 {
		return math.Floor(float64(math.Log10(x*0x1p100)) - float64(100*math.Log10(2))) // not fused: the same on every machine
	}
	return math.Floor(math.Log10(x))
}

// floorAt returns x ≥ 0 rounded down to a multiple m of 10^−k (floorNear's
// slack kept), as the float64 nearest m·10^−k, read from its decimal digits
// so that 558·10^−307 is 5.58e-305, not a division's 5.579999999999999e-305;
// for k past float64's range of powers of 10 too, x then scaled by 10^300
// first, in two steps.
func floorAt(x, k float64) float64 { return unitsOf(floorNear(scaleUp(x, k)), k) }

// scaleUp returns x·10^k, in two steps past float64's range of powers of
// 10.
func scaleUp(x, k float64) float64 {
	pre, e := 1.0, k
	if e > 300 {
		pre, e = 1e300, e-300
	}
	return x * pre * math.Pow(10, e)
}

// unitsOf returns m units of 10^−k, m a whole number, as the float64
// nearest, read from its decimal digits.
func unitsOf(m, k float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(m, 'f', 0, 64)+"e"+strconv.Itoa(-int(k)), 64) // never fails: digits and an exponent
	return v
}

// floorNear returns ⌊v⌋, or the whole number just above v when v is within
// 16 units in its last place of it: floating point writes 7/(7·0.1) as
// 9.999999999999998, which is 10. The slack is in v's own last place, so
// that it never adds a whole unit to a large v (a slack relative to v, of
// 1e-12, added 200 rounds to a budget of 2e14).
func floorNear(v float64) float64 {
	if up := math.Ceil(v); up-v <= 16*(math.Nextafter(v, math.Inf(1))-v) {
		return up
	}
	return math.Floor(v)
}

// RoundAmount rounds x, a rate or an amount of rounds, as the JSON reports
// write it: to three decimals, or, below 0.1 in size, to three significant
// digits, so that an amount above 0 never reads as 0 and keeps at least
// the digits formatAmount prints; x as it is from 1e15 on, where a float64
// holds no decimals, or when it is not finite.
func RoundAmount(x float64) float64 {
	if a := math.Abs(x); a >= 0.1 || a == 0 || math.IsNaN(x) {
		return Round3(x)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	return r
}

// undefinedMultiplier is what a report says under a multiplier or cost
// written as "-": konvoy.Cost is undefined, 0, when no event takes any
// time, as every run then has no parallelism.
const undefinedMultiplier = "no event takes any time: a multiplier is undefined"

// multiplier writes a multiplier with three decimals, or "-" when it is
// undefined (0).
func multiplier(m float64) string {
	if m == 0 {
		return "-"
	}
	return strconv.FormatFloat(m, 'f', 3, 64)
}

// Percent writes a share as a percentage, the share as JSON gives it
// (RoundShare), in percent, so that 1/16 is 6.2% beside JSON's 0.062: with
// no more decimals than it needs, at most one, or, for a share above 0
// that three decimals would make 0, with three significant digits, so
// that 1.1e-5 is 0.0011%, not 0%.
func Percent(s float64) string {
	v := 100 * RoundShare(s)
	if Round3(s) == 0 && s != 0 {
		return strconv.FormatFloat(v, 'g', 3, 64) + "%"
	}
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0") + "%"
}

// formatShare writes a share as the text reports print ratios, with three
// decimals, or, for a share above 0 that three decimals would make 0, with
// three significant digits, as RoundShare gives it to JSON: 1/3001 is
// 0.000333, not 0.000.
func formatShare(s float64) string {
	if Round3(s) == 0 && s != 0 {
		return strconv.FormatFloat(RoundShare(s), 'g', 3, 64)
	}
	return strconv.FormatFloat(s, 'f', 3, 64)
}

// RoundShare rounds a share as the JSON reports write it: to three
// decimals (Round3), or, when that would make a share above 0 read as 0
// (below 0.0005), to three significant digits, as RoundAmount does.
func RoundShare(s float64) float64 {
	if r := Round3(s); r != 0 || s == 0 {
		return r
	}
	return RoundAmount(s)
}

// givenPercent writes a share the user gave, such as -collision, as a
// percentage with every digit it has (to 12 significant digits, which
// hides float64's: 0.07 is 7%, not 7.000000000000001%), where percent
// would round it: 0.0625 is 6.25%, as JSON's 0.0625.
func givenPercent(s float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(100*s, 'g', 12, 64), 64) // never fails: FormatFloat writes a number
	return strconv.FormatFloat(r, 'f', -1, 64) + "%"
}

// neutralWords maps what the libraries' messages name, options and fields
// a library user sets, to words that hold for the command and the page
// alike: nothing either lets one set, so the name goes. Each entry is a
// parenthesis or a prefix that a message of konvoy or eventlog holds.
var neutralWords = []string{
	"konvoy: Sweep: ", "konvoy: ",
	" (Reader.MaxRecordBytes)", "",
	" (Reader.MaxNameBytes)", "",
	" (Reader.MaxReorderBytes)", "",
	" (Reader.Format)", "",
	" (synth.MaxDuration)", "",
	" (Open and Decompress undo one layer of gzip)", " (konvoy undoes one layer of gzip, no more)",
	": synth: ", ": ", // the arrivals konvoy plan draws or scales at -peak
}

// libraryWords maps the library names of neutralWords, and the options
// the command sets from its flags, to what sets them from the command line
// (see CommandWords).
var libraryWords = newWording(append([]string{
	// The runs' share of it, and half that beside a -reorder window: see runs.Memory.
	" (WithMaxMemory, beside a Reorder window as large)", " (three eighths of -max-memory, as much again for the -reorder window)",
	" (WithMaxMemory)", " (three quarters of -max-memory)",
	" (WithMaxBacklog)", " (its share of -max-backlog)",
	" (MaxNameBytes)", " (three quarters of the memory konvoy replay takes under ulimit -v or its cgroup's limit: raise that limit)",
	": raise the rate", ": raise -peak",
	" (Reader.Durations)", " (-duration-model)",
}, neutralWords...)...)

// pageWords maps them to what konvoy serve's page and API can say: the
// server, not a query, sets the memory a request's runs take, and bounds
// no backlog of its own (see PageWords).
var pageWords = newWording(append([]string{
	" (WithMaxMemory, beside a Reorder window as large)", " (half the memory konvoy serve gives a request's runs, the other half its -reorder window's)",
	" (WithMaxMemory)", " (the memory konvoy serve gives a request)",
	" (WithMaxBacklog)", "",
	": raise the rate", ": raise the arrival rate",
	" (Reader.Durations)", " (the duration model)",
}, neutralWords...)...)

// CommandWords returns msg, an error message of the command, in the
// command's words: the library options and fields it names, which a user of
// the command cannot set, become the flags that set them, or go. The
// user's own text in msg is kept as it is (see reword): keep, such as the
// names UserText finds in the error.
func CommandWords(msg string, keep ...string) string { return reword(libraryWords, msg, keep) }

// PageWords returns msg, an error message konvoy serve's page or API
// shows, in the page's words: no library option or field is named; the
// memory budget is the server's. The user's own text in msg is kept as it
// is, as CommandWords keeps it.
func PageWords(msg string, keep ...string) string { return reword(pageWords, msg, keep) }

// reword returns msg with r's phrases replaced outside the user's own
// text, which is kept as it is: every string msg quotes as Go quotes it (a
// value, a field, a key, a flag's value: "abc (WithMaxBacklog) z"), and
// every occurrence of each of keep, such as a trace's file name, which a
// message writes unquoted (FILE:LINE:). A file named "my
// (Reader.Format).csv" was told as "my.csv".
func reword(w wording, msg string, keep []string) string {
	var b strings.Builder
	at := 0                      // msg is written up to at
	qs, qe := quotedFrom(msg, 0) // the first quoted value from at on: kept until at passes its start
	next := make([]int, len(keep))
	for i := range next {
		next[i] = -1 // each name's next place from at on, once at has passed the last found: searched again
	}
	for at < len(msg) {
		if qs < at {
			qs, qe = quotedFrom(msg, at)
		}
		start, end := userText(msg, at, qs, qe, keep, next, w.phrases)
		b.WriteString(w.r.Replace(msg[at:start]))
		b.WriteString(msg[start:end])
		at = end
	}
	return b.String()
}

// userText returns the first span of the user's own text in msg from at
// on, as reword keeps it, the quoted value at qs to qe (len(msg) for none)
// or a name of keep before it, next holding each name's next place (see
// reword), which it searches again, to the message's end, only once at
// has passed it: so each name is searched for once over the message.
func userText(msg string, at, qs, qe int, keep []string, next []int, phrases []string) (start, end int) {
	start, end = qs, qe
	for n, k := range keep {
		if next[n] < at && next[n] != len(msg) {
			if next[n] = nameIndex(msg, at, len(msg), k, phrases); next[n] < 0 {
				next[n] = len(msg) // none: never searched again
			}
		}
		if i := next[n]; i < start {
			start, end = i, i+len(k)
		}
	}
	return start, end
}

// quotedFrom returns the span of the first quoted value, as strconv
// quotes it, in msg from at on; len(msg), len(msg) when there is none.
func quotedFrom(msg string, at int) (start, end int) {
	for i := at; i < len(msg); i++ {
		if msg[i] != '"' {
			continue
		}
		if q, err := strconv.QuotedPrefix(msg[i:]); err == nil {
			return i, i + len(q)
		}
	}
	return len(msg), len(msg)
}

// nameIndex returns the first index of k in msg from at on, and before
// limit, where it is the user's: not part of a longer word, no letter or
// digit just before or after it, nor a word within one of phrases, the
// library's words; or -1. A name "z" inside "gzip", or "gzip" inside the
// phrase that names it, is not the user's; a name that is a whole phrase
// but for its spaces and parentheses, "(Reader.Format)", is.
func nameIndex(msg string, at, limit int, k string, phrases []string) int {
	if k == "" {
		return -1
	}
	for at < limit && at <= len(msg)-len(k) {
		i := strings.Index(msg[at:], k)
		if i < 0 || at+i >= limit {
			return -1
		}
		i += at
		if j := i + len(k); (i == 0 || !wordByte(msg[i-1])) && (j == len(msg) || !wordByte(msg[j])) && !within(msg, i, j, phrases) {
			return i
		}
		at = i + 1
	}
	return -1
}

// within tells whether msg[i:j] lies within an occurrence in msg of one of
// phrases that holds a letter, a digit or a parenthesis besides it, in
// time in proportion to the phrases' lengths: a file named Reader.Format
// is the user's at the start of a message, but not in the library's
// " (Reader.Format)"; one named synth is the user's between ": " and ": ",
// which ": synth: " also is.
func within(msg string, i, j int, phrases []string) bool {
	for _, p := range phrases {
		for s := max(0, j-len(p)); s <= i && s+len(p) <= len(msg); s++ {
			if msg[s:s+len(p)] == p && (strings.IndexFunc(msg[s:i], phraseRune) >= 0 || strings.IndexFunc(msg[j:s+len(p)], phraseRune) >= 0) {
				return true
			}
		}
	}
	return false
}

// phraseRune tells whether r, beside a name in a library phrase, makes
// the phrase's occurrence the library's: a letter, a digit or a
// parenthesis, not a space or a colon.
func phraseRune(r rune) bool {
	return r >= 0x80 || r == '(' || r == ')' || r < 0x80 && wordByte(byte(r))
}

// wording is a replacer of the library's phrases, and the phrases.
type wording struct {
	r       *strings.Replacer
	phrases []string
}

// newWording returns the wording of oldnew, pairs as strings.NewReplacer
// takes them.
func newWording(oldnew ...string) wording {
	w := wording{r: strings.NewReplacer(oldnew...)}
	for i := 0; i < len(oldnew); i += 2 {
		w.phrases = append(w.phrases, oldnew[i])
	}
	return w
}

// wordByte tells whether b, a byte of a message, is an ASCII letter or
// digit, or a byte of a character past ASCII.
func wordByte(b byte) bool {
	return b >= 0x80 || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// UserText returns the names err holds that its message writes as the
// user gave them, unquoted, for CommandWords and PageWords to keep: the
// file of an eventlog.Error, the path of an fs.PathError, the two paths
// of an os.LinkError (a rename's), and the
// UserText of any error in err's chain that has that method.
func UserText(err error) []string {
	var names []string
	for _, e := range chain(err) {
		switch e := e.(type) {
		case *eventlog.Error:
			names = append(names, e.File)
		case *fs.PathError:
			names = append(names, e.Path)
		case *os.LinkError:
			names = append(names, e.Old, e.New)
		case interface{ UserText() []string }:
			names = append(names, e.UserText()...)
		}
	}
	return names
}

// chain returns err and every error it wraps, depth first.
func chain(err error) []error {
	if err == nil {
		return nil
	}
	errs := []error{err}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		errs = append(errs, chain(u.Unwrap())...)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			errs = append(errs, chain(e)...)
		}
	}
	return errs
}

// Seconds is d in seconds, the float64 nearest its exact decimal (for d
// within 2^53 ns, some 104 days), as reports write it:
// time.Duration.Seconds adds its whole seconds and fraction apart, and
// may be a unit in the last place off (1.955081771 s read
// 1.9550817710000001, found by a review).
func Seconds(d time.Duration) float64 { return float64(d) / 1e9 }
