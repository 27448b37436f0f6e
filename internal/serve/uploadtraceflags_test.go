package serve

// An upload form sent again keeps the trace flags it was sent with: a
// refused upload's page "has q's trace flags, and keeps its run flags, for
// the trace to be sent again" (refusedPage). The form asks for 9 of the 17
// trace flags by a field each; the others (-round, -late, -reorder,
// -duration-model, -seed, -at-format, -partition, -input) must be kept too,
// as fields the user sees, not dropped without a word.

import (
	"regexp"
	"strings"
	"testing"
)

// uploadFormNames are the names of the fields of the page's upload form.
func uploadFormNames(page string) map[string]bool {
	_, form, _ := strings.Cut(page, `<form id="upload"`)
	form, _, _ = strings.Cut(form, "</form>")
	names := map[string]bool{}
	for _, m := range regexp.MustCompile(`<input[^>]*\sname="([^"]*)"`).FindAllStringSubmatch(form, -1) {
		names[m[1]] = true
	}
	return names
}

func TestARefusedUploadsFormKeepsEveryTraceFlag(t *testing.T) {
	s := newTestServer(100)
	rec := post(t, s, "big.csv", []byte(strings.Repeat("x", 200)), "steps", "a,b", "round", "100ms", "late", "5", "duration-model", "exp:3", "seed", "7")
	if rec.Code != 413 {
		t.Fatalf("status %d; want 413", rec.Code)
	}
	names := uploadFormNames(rec.Body.String())
	for _, f := range []string{"steps", "round", "late", "duration-model", "seed"} {
		if !names[f] {
			t.Errorf("the refused upload was sent with -%s; its page's upload form, sent again, drops it (fields %v)", f, names)
		}
		// Shown, for the user to change: one too long for the link, hidden,
		// would make the form refused again, however often sent.
		if !strings.Contains(rec.Body.String(), `<input id="upload-`+f+`" name="`+f+`" type="text"`) {
			t.Errorf("the refused page's form keeps -%s, but not as a field the user sees", f)
		}
	}
}
