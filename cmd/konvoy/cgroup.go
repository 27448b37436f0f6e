package main

import (
	"bufio"
	"bytes"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
)

// A process in a cgroup with a memory limit (a container's, a systemd
// unit's MemoryMax) that takes more than the limit leaves is killed by
// the kernel, without a word: the Go runtime's heap, held to -max-memory
// by its garbage collector, must fit in what the limit leaves, as it must
// in the address space that ulimit -v leaves (see addressSpaceLeft).

// cgroupMemoryLeft returns the bytes of memory that the cgroups of the
// process, read from fsys (the root of the file system: its
// proc/self/cgroup, proc/self/mountinfo and cgroup files), still let it
// take, and true; or false when no memory limit applies or none can be
// read. It reads the memory controller's hierarchy of cgroup version 1
// (memory.limit_in_bytes) when the process is in one, as on hosts that
// mount both versions, and of version 2 (memory.max) otherwise. What a
// cgroup lets the process take is its limit less what it uses beside the
// file cache, which the kernel reclaims before it kills (active_file and
// inactive_file: a trace read twice is active; tmpfs pages, which it
// cannot reclaim without swap, count as used), and the least of that over
// the process's cgroup and each one above it, up to the hierarchy's
// mount, counts.
func cgroupMemoryLeft(fsys fs.FS) (int64, bool) {
	g, ok := memoryCgroup(fsys)
	if !ok {
		return 0, false
	}
	least, limited := int64(0), false
	for dir := g.dir; ; dir = path.Dir(dir) {
		if left, ok := cgroupLevelLeft(fsys, dir, g.v1); ok && (!limited || left < least) {
			least, limited = left, true
		}
		if dir == g.mount || dir == "." || dir == "/" {
			break
		}
	}
	return least, limited
}

// cgroupDir is the directory of the process's memory cgroup, below the
// mount of its hierarchy, both as fs.FS paths, and the hierarchy's version.
type cgroupDir struct {
	dir, mount string
	v1         bool
}

// memoryCgroup returns the directory of the process's memory cgroup, as
// proc/self/cgroup names it and proc/self/mountinfo places it, and false
// when either cannot tell.
func memoryCgroup(fsys fs.FS) (cgroupDir, bool) {
	self, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return cgroupDir{}, false
	}
	var v1Path, v2Path string
	var inV1, inV2 bool
	for line := range strings.Lines(string(self)) {
		// hierarchy-ID:controller-list:cgroup-path
		parts := strings.SplitN(strings.TrimSuffix(line, "\n"), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			v2Path, inV2 = parts[2], true
		case hasField(parts[1], ",", "memory"):
			v1Path, inV1 = parts[2], true
		}
	}
	mounts, err := fs.ReadFile(fsys, "proc/self/mountinfo")
	if err != nil {
		return cgroupDir{}, false
	}
	if inV1 {
		if g, ok := cgroupUnder(mounts, v1Path, true); ok {
			return g, true
		}
	}
	if inV2 {
		return cgroupUnder(mounts, v2Path, false)
	}
	return cgroupDir{}, false
}

// cgroupUnder returns the directory of the cgroup at cgroupPath, of
// version 1's memory hierarchy (v1) or version 2's, below the mount of
// that hierarchy that mountinfo lists and whose root holds it.
func cgroupUnder(mountinfo []byte, cgroupPath string, v1 bool) (cgroupDir, bool) {
	for sc := bufio.NewScanner(bytes.NewReader(mountinfo)); sc.Scan(); {
		m, ok := parseMount(sc.Text())
		if !ok || v1 && (m.fstype != "cgroup" || !hasField(m.super, ",", "memory")) || !v1 && m.fstype != "cgroup2" {
			continue
		}
		rel, ok := strings.CutPrefix(cgroupPath, m.root)
		if !ok || m.root != "/" && rel != "" && rel[0] != '/' {
			continue // a mount of another part of the hierarchy
		}
		mount := strings.TrimPrefix(path.Clean(m.point), "/")
		if mount == "" {
			mount = "."
		}
		dir := path.Join(mount, rel)
		if !within(dir, mount) {
			continue // "/.." in a cgroup namespace: above the mount, not a cgroup of it
		}
		return cgroupDir{dir: dir, mount: mount, v1: v1}, true
	}
	return cgroupDir{}, false
}

// within tells whether dir, a clean fs.FS path, is mount or below it.
func within(dir, mount string) bool {
	if mount == "." {
		return dir != ".." && !strings.HasPrefix(dir, "../")
	}
	return dir == mount || strings.HasPrefix(dir, mount+"/")
}

// mountLine is what cgroupUnder reads of a line of mountinfo.
type mountLine struct {
	root, point, fstype, super string
}

// parseMount reads a line of mountinfo, "ID parent major:minor root
// mount-point options [optional...] - type source super-options", and
// returns false when it is not one.
func parseMount(line string) (mountLine, bool) {
	fields := strings.Fields(line)
	for i := 6; i+3 < len(fields); i++ {
		if fields[i] == "-" {
			return mountLine{root: unescapeMount(fields[3]), point: unescapeMount(fields[4]),
				fstype: fields[i+1], super: fields[i+3]}, true
		}
	}
	return mountLine{}, false
}

// unescapeMount returns a path of mountinfo with its octal escapes (\040
// for a space) undone.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hasField tells whether list, split at sep, has field f.
func hasField(list, sep, f string) bool {
	for g := range strings.SplitSeq(list, sep) {
		if g == f {
			return true
		}
	}
	return false
}

// cgroupLevelLeft returns what the cgroup at dir lets its processes still
// take, and false when it has no limit (or its files cannot be read): its
// limit less its usage beside file cache, at least 0.
func cgroupLevelLeft(fsys fs.FS, dir string, v1 bool) (int64, bool) {
	limitFile, usageFile, cache := "memory.max", "memory.current", []string{"active_file", "inactive_file"}
	if v1 {
		limitFile, usageFile, cache = "memory.limit_in_bytes", "memory.usage_in_bytes", []string{"total_active_file", "total_inactive_file"}
	}
	limit, ok := cgroupNumber(fsys, path.Join(dir, limitFile))
	if !ok || limit >= unlimitedV1 {
		return 0, false // "max", or version 1's no limit, a page count's largest
	}
	usage, ok := cgroupNumber(fsys, path.Join(dir, usageFile))
	if !ok {
		return 0, false
	}
	if stat, err := fs.ReadFile(fsys, path.Join(dir, "memory.stat")); err == nil {
		for line := range strings.Lines(string(stat)) {
			name, v, _ := strings.Cut(strings.TrimSpace(line), " ")
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 && slices.Contains(cache, name) {
				usage = max(usage-n, 0) // the counts are read at different moments: cache may pass usage
			}
		}
	}
	return max(limit-usage, 0), true
}

// unlimitedV1 is a version 1 memory limit that limits nothing: version 1
// writes none as the largest page count in bytes, 2^63 less a page.
const unlimitedV1 = math.MaxInt64 / 2

// cgroupNumber returns the whole number of bytes the file at name holds,
// and false when it holds none (version 2's "max") or cannot be read.
func cgroupNumber(fsys fs.FS, name string) (int64, bool) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil && n >= 0
}
