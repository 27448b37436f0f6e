package main

import (
	"testing"
	"testing/fstest"
)

// cgroupFiles returns a file system of the given files, each its text.
func cgroupFiles(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return fsys
}

const (
	mountV2 = "30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
	// A host that mounts both versions, memory in version 1 (this
	// project's machines).
	mountHybrid = "25 24 0:22 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:5 - cgroup2 cgroup2 rw\n" +
		"28 24 0:25 / /sys/fs/cgroup/cpu rw,nosuid,nodev,noexec,relatime shared:9 - cgroup cgroup rw,cpu\n" +
		"31 24 0:28 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:12 - cgroup cgroup rw,memory\n"
	procHybrid = "4:memory:/process_api/abc/kt\n1:cpu:/\n0::/\n"
)

// What the process's cgroups let it take is the least, over its cgroup
// and each above it up to the hierarchy's mount, of the limit less the
// usage beside reclaimable file cache; a cgroup with no limit ("max" in
// version 2, the largest page count in version 1) counts for nothing, and
// no limit at all, or files that cannot be read, for no limit known.
func TestCgroupMemoryLeftReadsTheTightestLimit(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  int64
		known bool
	}{
		{"version 2, a container's namespace", map[string]string{
			"proc/self/cgroup":              "0::/\n",
			"proc/self/mountinfo":           mountV2,
			"sys/fs/cgroup/memory.max":      "536870912\n",
			"sys/fs/cgroup/memory.current":  "104857600\n",
			"sys/fs/cgroup/memory.stat":     "anon 50000000\nfile 54857600\nactive_file 10000000\ninactive_file 40000000\n",
			"sys/fs/memory.max":             "1\n", // above the mount: not a cgroup
			"sys/fs/memory.current":         "0\n",
			"sys/fs/cgroup/memory.pressure": "",
		}, 536870912 - (104857600 - 40000000 - 10000000), true}, // the file cache, active and inactive, is not used
		{"version 2, a parent's limit tighter", map[string]string{
			"proc/self/cgroup":    "0::/user.slice/app.service\n",
			"proc/self/mountinfo": mountV2,
			"sys/fs/cgroup/user.slice/app.service/memory.max":       "2147483648\n",
			"sys/fs/cgroup/user.slice/app.service/memory.current":   "10485760\n",
			"sys/fs/cgroup/user.slice/memory.max":                   "1073741824\n",
			"sys/fs/cgroup/user.slice/memory.current":               "943718400\n",
			"sys/fs/cgroup/user.slice/memory.stat":                  "inactive_file 0\n",
			"sys/fs/cgroup/memory.current":                          "5000000000\n", // the root: no memory.max
			"sys/fs/cgroup/user.slice/app.service/memory.stat":      "inactive_file 1048576\n",
			"sys/fs/cgroup/user.slice/app.service/memory.swap.max":  "max\n",
			"sys/fs/cgroup/user.slice/app.service/memory.swap.peak": "0\n",
		}, 124 * mib, true}, // 1 GiB less 900 MiB
		{"version 2, file cache counted past usage", map[string]string{
			"proc/self/cgroup":             "0::/\n",
			"proc/self/mountinfo":          mountV2,
			"sys/fs/cgroup/memory.max":     "629145600\n",
			"sys/fs/cgroup/memory.current": "524288000\n",
			"sys/fs/cgroup/memory.stat":    "active_file 4096\ninactive_file 524288000\nshmem 0\n",
		}, 629145600, true}, // read a moment apart: none used, not all of it
		{"version 2, a namespace's path above the mount", map[string]string{
			"proc/self/cgroup":      "0::/..\n",
			"proc/self/mountinfo":   mountV2,
			"sys/fs/memory.max":     "1\n",
			"sys/fs/memory.current": "0\n",
		}, 0, false},
		{"version 2, no limit", map[string]string{
			"proc/self/cgroup":               "0::/a\n",
			"proc/self/mountinfo":            mountV2,
			"sys/fs/cgroup/a/memory.max":     "max\n",
			"sys/fs/cgroup/a/memory.current": "10\n",
		}, 0, false},
		{"version 2, used past its limit", map[string]string{
			"proc/self/cgroup":             "0::/\n",
			"proc/self/mountinfo":          mountV2,
			"sys/fs/cgroup/memory.max":     "1000\n",
			"sys/fs/cgroup/memory.current": "2000\n",
		}, 0, true},
		{"version 1 beside version 2, the parent limited", map[string]string{
			"proc/self/cgroup":    procHybrid,
			"proc/self/mountinfo": mountHybrid,
			"sys/fs/cgroup/memory/process_api/abc/kt/memory.limit_in_bytes": "9223372036854771712\n",
			"sys/fs/cgroup/memory/process_api/abc/kt/memory.usage_in_bytes": "1000\n",
			"sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes":    "629145600\n",
			"sys/fs/cgroup/memory/process_api/abc/memory.usage_in_bytes":    "218001408\n",
			"sys/fs/cgroup/memory/process_api/abc/memory.stat":              "cache 100\ninactive_file 5\ntotal_active_file 1000000\ntotal_inactive_file 1001408\n",
			"sys/fs/cgroup/unified/memory.max":                              "1\n", // version 2's: not the memory controller's here
			"sys/fs/cgroup/unified/memory.current":                          "0\n",
		}, 629145600 - 216000000, true},
		{"version 1 in a container, its cgroup the mount's root", map[string]string{
			"proc/self/cgroup":                           "12:memory:/docker/0123\n0::/\n",
			"proc/self/mountinfo":                        "40 30 0:40 /docker/0123 /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "268435456\n",
			"sys/fs/cgroup/memory/memory.usage_in_bytes": "0\n",
		}, 256 * mib, true},
		{"a mount of another part of the hierarchy", map[string]string{
			"proc/self/cgroup":    "12:memory:/docker/0123\n",
			"proc/self/mountinfo": "40 30 0:40 /doc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n",
			"sys/fs/cgroup/memory/ker/0123/memory.limit_in_bytes": "1\n",
			"sys/fs/cgroup/memory/ker/0123/memory.usage_in_bytes": "0\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":          "1\n",
			"sys/fs/cgroup/memory/memory.usage_in_bytes":          "0\n",
		}, 0, false},
		{"a mount point with a space", map[string]string{
			"proc/self/cgroup":                "0::/\n",
			"proc/self/mountinfo":             `30 24 0:26 / /sys/fs/my\040cgroup rw - cgroup2 cgroup2 rw` + "\n",
			"sys/fs/my cgroup/memory.max":     "3000\n",
			"sys/fs/my cgroup/memory.current": "1000\n",
		}, 2000, true},
		{"an unreadable usage", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"proc/self/mountinfo":      mountV2,
			"sys/fs/cgroup/memory.max": "3000\n",
		}, 0, false},
		{"no mountinfo", map[string]string{
			"proc/self/cgroup":             "0::/\n",
			"sys/fs/cgroup/memory.max":     "3000\n",
			"sys/fs/cgroup/memory.current": "1000\n",
		}, 0, false},
		{"no cgroup", map[string]string{
			"proc/self/mountinfo":          mountV2,
			"sys/fs/cgroup/memory.max":     "3000\n",
			"sys/fs/cgroup/memory.current": "1000\n",
		}, 0, false},
	} {
		got, known := cgroupMemoryLeft(cgroupFiles(tc.files))
		if got != tc.want || known != tc.known {
			t.Errorf("%s: %d, %v; want %d, %v", tc.name, got, known, tc.want, tc.known)
		}
	}
}
