package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTheCommandQuotesTheUsersDataAsGiven checks that the command's errors
// show the user's own data as given, however it reads: a trace named "my
// (Reader.Format).csv" whose duration is "abc (WithMaxBacklog) z" was told
// as "my.csv" with a value "abc (its share of -max-backlog) z", as
// report.CommandWords rewrote the libraries' phrases in the whole message,
// the file's name and the value included (found by a review of the page,
// whose words had the same fault).
func TestTheCommandQuotesTheUsersDataAsGiven(t *testing.T) {
	name := filepath.Join(t.TempDir(), "my (Reader.Format).csv")
	const value = "abc (WithMaxBacklog) z"
	if err := os.WriteFile(name, []byte("key,line,step,duration\nA,L,1,"+value+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, status := runCommand("-events", name)
	if want := name + `:2: field "duration": value "` + value + `": want`; status != 1 || !strings.Contains(errOut, want) {
		t.Errorf("konvoy -events %q: status %d, %q; want 1 and %q", name, status, errOut, want)
	}
	missing := filepath.Join(t.TempDir(), "no (Reader.Format).csv")
	if _, errOut, _ := runCommand("-events", missing); !strings.Contains(errOut, missing) {
		t.Errorf("konvoy -events %q: %q; want the file named as given", missing, errOut)
	}
}
