package kafka

import (
	"strings"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/twmb/franz-go/pkg/kerr"
)

// Run commits as it ends and returns that commit's error: with Kafka
// refusing every commit, Run's error names the refusal.
func TestRunReturnsItsLastCommitsError(t *testing.T) {
	addrs, _ := refusingCluster(t, kerr.GroupAuthorizationFailed)
	produce(t, addrs, 5, 2, 1)
	handle, all := closeAfter(5)
	c, err := New(memberOpts(addrs), konvoy.Convoy, 2, keyEvent, handle, WithCommitInterval(testWait))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(c)
	<-all
	err = stop()
	if err == nil || !strings.Contains(err.Error(), "GROUP_AUTHORIZATION_FAILED") {
		t.Errorf("Run with Kafka refusing its last commit: %v; want the commit's error", err)
	}
}
