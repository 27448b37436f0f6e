package kafka

import "flag"

// long asks for the long chaos runs: go test ./kafka -args -konvoy.long
// (the name and meaning of the root package's flag). Without it the chaos
// tests run a few seeds, so that go test ./kafka stays within the suite's
// time; with it they run many more, on more records, as does the
// property of commits' epochs (TestACommitsEpochIsThatOfTheHighestRecordItCovers).
var long = flag.Bool("konvoy.long", false, "run the long randomised checks")
