package eventlog

import (
	"bufio"
	"fmt"
	"strings"
)

// A trace is text, so a decoder refuses binary input before it parses
// anything: input that starts with the magic number of a compressed file or
// an archive, or with a UTF-16 or UTF-32 byte-order mark (see
// [binaryStart]), and, wherever it is, a NUL byte, which no CSV or JSON Lines
// trace holds (see [binaryErr]). Both are found as the bytes stream past, so
// that a gigabyte of zeros or of compressed data is refused at its first
// bytes, not at the first over-long record.

// binaryMagic is the start of a binary format that a trace may be by mistake.
type binaryMagic struct {
	magic string // the first bytes
	name  string // what the input is, as an error message says it
	then  string // what to do with it
}

// magics are the formats binaryStart knows: the compressed files and archives
// a trace is commonly shipped in, and byte-order marks of text that is not
// UTF-8. Each magic holds a control character or a byte that is not UTF-8
// there, so no trace of text starts with one. bzip2 is apart (see isBzip2):
// its magic, "BZh" and a digit, is text.
var magics = []binaryMagic{
	{"\x1f\x8b", "gzip-compressed data", "decompress it first (Open and Decompress undo one layer of gzip)"},
	{"\x1f\x9d", "compress (.Z) data", "decompress it first"},
	{"PK\x03\x04", "a zip archive", "extract the trace first"},
	{"PK\x05\x06", "a zip archive", "extract the trace first"},
	{"PK\x07\x08", "a zip archive", "extract the trace first"},
	{"\xfd7zXZ\x00", "xz-compressed data", "decompress it first"},
	{"\x28\xb5\x2f\xfd", "zstd-compressed data", "decompress it first"},
	{"\x04\x22\x4d\x18", "lz4-compressed data", "decompress it first"},
	{"7z\xbc\xaf\x27\x1c", "a 7z archive", "extract the trace first"},
	{"\xff\xfe", "a UTF-16 or UTF-32 byte-order mark", "convert it to UTF-8 first"},
	{"\xfe\xff", "a UTF-16 byte-order mark", "convert it to UTF-8 first"},
}

// maxMagic is the most bytes binaryStart looks at.
const maxMagic = 10

// binaryStart looks at the first bytes of br, at most maxMagic of them,
// without consuming them, and describes the binary format they start, or
// returns "" when they start none it knows.
func binaryStart(br *bufio.Reader) string {
	b, _ := br.Peek(maxMagic)
	for _, m := range magics {
		if strings.HasPrefix(string(b), m.magic) {
			return fmt.Sprintf("%s (bytes % x); %s", m.name, m.magic, m.then)
		}
	}
	if isBzip2(b) {
		return fmt.Sprintf("bzip2-compressed data (bytes % x); decompress it first", b[:4])
	}
	return ""
}

// isBzip2 tells whether b is the start of a bzip2 stream: "BZh", the block
// size 1 to 9, and the magic of a first block ("1AY&SY") or of the end of the
// stream, ten bytes that no CSV header or JSON object starts with.
func isBzip2(b []byte) bool {
	if len(b) < maxMagic || string(b[:3]) != "BZh" || b[3] < '1' || b[3] > '9' {
		return false
	}
	rest := string(b[4:maxMagic])
	return rest == "1AY&SY" || rest == "\x17rE8P\x90"
}

// binaryErr is the problem with a NUL byte at offset, counted from 0 at the
// input's first byte, in the record that starts at line.
func (d *Decoder) binaryErr(line int, offset int64) *Error {
	where := "starts with"
	if line > 1 {
		where = "has"
	}
	return &Error{File: d.name, Line: line,
		Want: fmt.Sprintf("want a CSV or JSON Lines trace; the input %s binary data (a NUL byte at byte %d)", where, offset)}
}
