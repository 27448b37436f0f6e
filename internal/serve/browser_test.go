//go:build browser

// The browser tests drive Chromium (github.com/chromedp/chromedp) against
// konvoy serve itself, built from cmd/konvoy and started on a free port:
// the page as a reader uses it, with the keyboard and the mouse. They need
// a Chromium or Chrome on the PATH (or KONVOY_CHROMIUM) and fail, never
// skip, when none starts:
//
//	go test -tags browser ./internal/serve/
//	go test -tags browser ./internal/serve/ -run Browser/lesson -update  # rewrites docs/serve.png
package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

var update = flag.Bool("update", false, "rewrite docs/serve.png, the README's screenshot of the page")

// browsers are the names Chromium goes by, tried in turn.
var browsers = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// startServer builds konvoy and starts konvoy serve on a free port of
// 127.0.0.1, stopped with SIGINT when the test ends; it returns the page's
// URL.
func startServer(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, to build konvoy: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "konvoy")
	if out, err := exec.Command(goTool, "build", "-o", bin, "github.com/sirali-konvoy/konvoy/cmd/konvoy").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			t.Errorf("konvoy serve after an interrupt: %v; want exit 0", err)
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSuffix(line, " (Ctrl-C stops it)\n"), "konvoy serve: ")
	if err != nil || !ok {
		t.Fatalf("konvoy serve's first line %q, %v", line, err)
	}
	return url
}

// startBrowser starts a headless Chromium with a fresh profile, and none of
// its background connections, and returns a context of one tab. Errors on
// the page, a script's or a Content-Security-Policy's, are collected and
// fail the test.
func startBrowser(t *testing.T) context.Context {
	t.Helper()
	path := os.Getenv("KONVOY_CHROMIUM")
	for _, name := range browsers {
		if path != "" {
			break
		}
		path, _ = exec.LookPath(name)
	}
	if path == "" {
		t.Fatalf("no browser: none of %s is on the PATH, and KONVOY_CHROMIUM is not set (apt-get install chromium)", strings.Join(browsers, ", "))
	}
	// The profile is not t.TempDir's: Chromium's helper processes may still
	// write to it as the browser exits, and TempDir fails a test whose
	// directory it cannot remove at once. This one is removed once the
	// browser has exited, trying for up to five seconds.
	profile, err := os.MkdirTemp("", "konvoy-browser-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for i := 0; i < 50 && os.RemoveAll(profile) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(profile), chromedp.WindowSize(1200, 1400),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		_ = chromedp.Cancel(ctx) // closes the browser and waits for it
		cancel()
		cancelAlloc()
		if c := chromedp.FromContext(ctx); c != nil && c.Allocator != nil {
			c.Allocator.Wait() // every browser process has exited
		}
	})
	var mu sync.Mutex
	var problems []string
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Error())
		case *log.EventEntryAdded:
			// A bad trace's page comes with 422, which the browser logs.
			if ev.Entry.Level == log.LevelError && !strings.Contains(ev.Entry.Text, "responded with a status of 422") {
				problems = append(problems, "console: "+ev.Entry.Text)
			}
		}
	})
	if err := chromedp.Run(ctx, log.Enable()); err != nil {
		t.Fatalf("the browser %s does not start: %v", path, err)
	}
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, p := range problems {
			t.Errorf("the page: %s", p)
		}
	})
	return ctx
}

// run runs actions in the tab, for at most a minute.
func run(t *testing.T, ctx context.Context, actions ...chromedp.Action) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// view is what the tests read off the page.
type view struct {
	Search    string   // location.search
	Rounds    []string // the first table's rounds row, one cell per layout
	Columns   []string // its layouts
	Pictures  int      // inline SVGs
	Described bool     // every SVG has a title and a description
	Pics      string   // every SVG's markup, to see them change
	Summary   string
	Error     string
	Focus     string // the focused element's id
	Consumers string
	Policy    string
	Checked   []string // the layouts checked
}

const readView = `(() => {
  const rows = [...document.querySelectorAll("table tbody tr")];
  const rounds = rows.find(r => r.querySelector("th").textContent === "rounds");
  const svgs = [...document.querySelectorAll("svg")];
  const text = id => (document.getElementById(id) || {}).textContent || "";
  return {
    Search: location.search,
    Rounds: rounds ? [...rounds.querySelectorAll("td")].map(c => c.textContent) : [],
    Columns: [...(document.querySelector("table") || document).querySelectorAll("thead th")].slice(1).map(c => c.textContent),
    Pictures: svgs.length,
    Described: svgs.every(s => s.querySelector("title") && s.querySelector("title").textContent && s.querySelector("desc") && s.querySelector("desc").textContent.length > 40),
    Pics: svgs.map(s => s.outerHTML).join(""),
    Summary: text("summary"),
    Error: text("error"),
    Focus: document.activeElement ? document.activeElement.id : "",
    Consumers: document.getElementById("consumers").value,
    Policy: document.getElementById("policy").value,
    Checked: [...document.querySelectorAll("input[name=layouts]:checked")].map(c => c.value),
  };
})()`

// read returns the page's view once the page has loaded.
func read(t *testing.T, ctx context.Context) view {
	t.Helper()
	var v view
	run(t, ctx, chromedp.WaitReady("body"), chromedp.Evaluate(readView, &v))
	return v
}

// loaded waits until the tab has navigated to a page whose search holds
// want, and has loaded it: it asks again while the page is changing, which
// fails a question in flight.
func loaded(want string) chromedp.Action {
	expr := fmt.Sprintf(`location.search.includes(%q) && document.readyState === "complete"`, want)
	return chromedp.ActionFunc(func(ctx context.Context) error {
		for {
			var ok bool
			if err := chromedp.Evaluate(expr, &ok).Do(ctx); err == nil && ok {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("waiting for a page whose link holds %s: %w", want, ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
}

func TestBrowser(t *testing.T) {
	url := startServer(t)
	ctx := startBrowser(t)

	t.Run("lesson", func(t *testing.T) {
		run(t, ctx, chromedp.Navigate(url))
		v := read(t, ctx)
		if strings.Join(v.Rounds, " ") != "8 13 19 8" || strings.Join(v.Columns, " ") != "free convoy line-convoy version-stamp" {
			t.Errorf("the lesson's first table: layouts %q, rounds %q; want the lesson's four, 8 13 19 8", v.Columns, v.Rounds)
		}
		if v.Pictures != 6 || !v.Described {
			t.Errorf("%d pictures, described %v; want rounds, four schedules and latency, each with a title and a description", v.Pictures, v.Described)
		}
		if *update {
			var png []byte
			run(t, ctx, chromedp.EmulateViewport(1200, 1500), chromedp.CaptureScreenshot(&png))
			if err := os.WriteFile(filepath.Join("..", "..", "docs", "serve.png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("consumers from the keyboard", func(t *testing.T) {
		run(t, ctx, chromedp.Navigate(url))
		before := read(t, ctx)
		// Clear the count, type 8 and leave the field: the page shows the
		// view of 8 consumers, the field keeping the focus.
		run(t, ctx, chromedp.SetValue("#consumers", ""), chromedp.SendKeys("#consumers", "8"), chromedp.KeyEvent("\t"), loaded("consumers=8"))
		v := read(t, ctx)
		if strings.Join(v.Rounds, " ") != "5 9 14 5" || !strings.Contains(v.Summary, "8 consumers") {
			t.Errorf("at 8 consumers: rounds %q, summary %q; want 5 9 14 5", v.Rounds, v.Summary)
		}
		if v.Pics == before.Pics {
			t.Errorf("the pictures did not change with the consumers")
		}
		if v.Focus != "consumers" {
			t.Errorf("the focus is on %q after the page changed; want it kept on the consumers", v.Focus)
		}
	})

	t.Run("a layout from the keyboard", func(t *testing.T) {
		run(t, ctx, chromedp.Navigate(url+"?consumers=8"))
		run(t, ctx, chromedp.Focus("#layout-line-convoy"), chromedp.KeyEvent(" "), loaded("layouts=free,convoy,version-stamp"))
		v := read(t, ctx)
		if strings.Join(v.Columns, " ") != "free convoy version-stamp" || strings.Join(v.Rounds, " ") != "5 9 5" || v.Pictures != 5 {
			t.Errorf("without line-convoy: layouts %q, rounds %q, %d pictures; want free convoy version-stamp, 5 9 5, 5 pictures", v.Columns, v.Rounds, v.Pictures)
		}
		if v.Search != "?consumers=8&layouts=free,convoy,version-stamp&policy=head-of-line" {
			t.Errorf("the link is %q; want the short one, lists joined by commas", v.Search)
		}
	})

	t.Run("permalink", func(t *testing.T) {
		query := "?layouts=free,convoy&policy=lane-aware&consumers=8"
		run(t, ctx, chromedp.Navigate(url+query))
		v := read(t, ctx)
		if v.Search != query || v.Policy != "lane-aware" || v.Consumers != "8" || strings.Join(v.Checked, ",") != "free,convoy" {
			t.Errorf("the controls of %s: policy %q, consumers %q, layouts %q", query, v.Policy, v.Consumers, v.Checked)
		}
		if strings.Join(v.Rounds, " ") != "5 8" {
			t.Errorf("rounds %q; want 5 8 (lane-aware dispatch at 8 consumers)", v.Rounds)
		}
		// The page's API link answers the same runs.
		var api []struct{ Rounds int }
		var body string
		run(t, ctx, chromedp.Evaluate(`fetch(document.getElementById("api").href).then(r => r.text())`, &body,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
		if err := json.Unmarshal([]byte(body), &api); err != nil || len(api) != 2 || api[0].Rounds != 5 || api[1].Rounds != 8 {
			t.Errorf("the API link answers %s; want free 5 and convoy 8 rounds", body)
		}
	})

	t.Run("upload", func(t *testing.T) {
		shipments, err := filepath.Abs(filepath.Join("..", "..", "cmd", "konvoy", "testdata", "shipments.csv"))
		if err != nil {
			t.Fatal(err)
		}
		run(t, ctx, chromedp.Navigate(url+"?consumers=2"),
			chromedp.SetUploadFiles("#events", []string{shipments}),
			chromedp.SendKeys("#upload-steps", "accepted,transfer,out-for-delivery,delivered"),
			chromedp.SendKeys("#upload-history", "scanned,weighed"),
			chromedp.Click("#send"), loaded("trace="))
		v := read(t, ctx)
		if !strings.HasPrefix(v.Summary, "The trace shipments.csv: 50 events, 12 keys") || v.Error != "" {
			t.Errorf("after the upload: summary %q, error %q", v.Summary, v.Error)
		}
		if !strings.Contains(v.Search, "consumers=2") || v.Consumers != "2" || v.Pictures != 6 || !v.Described {
			t.Errorf("the upload's view: %s, consumers %q, %d pictures; want the view's 2 consumers kept, 6 pictures described", v.Search, v.Consumers, v.Pictures)
		}
		// Another view of the uploaded trace needs no second upload.
		run(t, ctx, chromedp.WaitVisible("#policy"), chromedp.Focus("#policy"), chromedp.KeyEvent(kb.ArrowDown), loaded("policy=lane-aware"))
		if v2 := read(t, ctx); !strings.Contains(v2.Summary, "lane-aware dispatch") || !strings.Contains(v2.Search, "trace=") {
			t.Errorf("another policy on the upload: summary %q, link %q", v2.Summary, v2.Search)
		}
	})

	t.Run("bad upload", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad.csv")
		if err := os.WriteFile(bad, []byte("key,line,status,duration\nK1,L1,accepted,1\nK2,L1,lost,1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, ctx, chromedp.Navigate(url), chromedp.SetUploadFiles("#events", []string{bad}),
			chromedp.SendKeys("#upload-steps", "accepted"), chromedp.Click("#send"), loaded("trace="))
		v := read(t, ctx)
		if !strings.Contains(v.Error, `bad.csv:3: field "status": value "lost"`) || v.Pictures != 0 {
			t.Errorf("a bad trace: error %q, %d pictures; want bad.csv:3's error and no picture", v.Error, v.Pictures)
		}
	})
}
