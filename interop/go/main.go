// go_peer writes and verifies LevelDB databases described by a recipe, using
// goleveldb. See interop/RECIPES.md for the recipe format.
//
//	go_peer write [--goleveldb-filter-name] <dir> <recipe>
//	go_peer verify [--strict-all] [--read-only] <dir> <recipe>
//	go_peer expand <recipe>
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/comparer"
	"github.com/syndtr/goleveldb/leveldb/filter"
	"github.com/syndtr/goleveldb/leveldb/iterator"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/util"
)

const reverseName = "leveldbj.ReverseBytewiseComparator"

// reverseBytewise orders keys by descending unsigned bytes. It never shortens keys.
type reverseBytewise struct{}

func (reverseBytewise) Compare(a, b []byte) int           { return -bytes.Compare(a, b) }
func (reverseBytewise) Name() string                      { return reverseName }
func (reverseBytewise) Separator(dst, a, b []byte) []byte { return nil }
func (reverseBytewise) Successor(dst, b []byte) []byte    { return nil }

// cppBloom is goleveldb's bloom filter (the same bits as C++ LevelDB's) under the name
// C++ LevelDB gives it; goleveldb's own name lacks the trailing "2", so neither side
// would use the other's filters.
type cppBloom struct{ filter.Filter }

func (cppBloom) Name() string { return "leveldb.BuiltinBloomFilter2" }

type peer struct {
	rc           *recipe
	cmp          comparer.Comparer
	nativeFilter bool
	strictAll    bool
	readOnly     bool
	db           *leveldb.DB
}

func (p *peer) options(create bool) *opt.Options {
	o := &opt.Options{
		ErrorIfMissing:       !create,
		ErrorIfExist:         create,
		Comparer:             p.cmp,
		BlockSize:            p.rc.blockSize,
		BlockRestartInterval: p.rc.restartInterval,
		WriteBuffer:          p.rc.writeBufferSize,
		CompactionTableSize:  p.rc.maxFileSize,
		Compression:          opt.NoCompression,
	}
	if p.rc.snappy {
		o.Compression = opt.SnappyCompression
	}
	if p.rc.bloomBits > 0 {
		bloom := filter.NewBloomFilter(p.rc.bloomBits)
		o.Filter = cppBloom{bloom}
		o.AltFilters = []filter.Filter{bloom}
		if p.nativeFilter {
			o.Filter, o.AltFilters = bloom, []filter.Filter{cppBloom{bloom}}
		}
	}
	if p.strictAll {
		o.Strict = opt.StrictAll
	}
	o.ReadOnly = p.readOnly
	return o
}

func (p *peer) open(dir string, create bool) {
	db, err := leveldb.OpenFile(dir, p.options(create))
	if err != nil {
		fatalf(1, "open %s: %v", dir, err)
	}
	p.db = db
}

func hexs(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	if len(b) > 32 {
		return fmt.Sprintf("%x...(%d bytes)", b[:32], len(b))
	}
	return fmt.Sprintf("%x", b)
}

type reader interface {
	Get(key []byte, ro *opt.ReadOptions) ([]byte, error)
	NewIterator(slice *util.Range, ro *opt.ReadOptions) iterator.Iterator
}

// compare checks the database (or a snapshot) against the model; returns "" or a mismatch.
func compare(r reader, m *model) (string, string) {
	live, absent := m.sorted()
	for _, k := range live {
		got, err := r.Get([]byte(k), nil)
		if err != nil {
			return fmt.Sprintf("Get(%s): %v, expected value %s", hexs([]byte(k)), err, hexs(m.live[k])), ""
		}
		if !bytes.Equal(got, m.live[k]) {
			return fmt.Sprintf("Get(%s) = %s, expected %s", hexs([]byte(k)), hexs(got), hexs(m.live[k])), ""
		}
	}
	for _, k := range absent {
		got, err := r.Get([]byte(k), nil)
		if err != leveldb.ErrNotFound {
			return fmt.Sprintf("Get(%s) of a deleted key: value %s, error %v", hexs([]byte(k)), hexs(got), err), ""
		}
	}
	it := r.NewIterator(nil, nil)
	defer it.Release()
	at := func() string {
		if !it.Valid() {
			return "the end"
		}
		return hexs(it.Key())
	}
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		if i == len(live) {
			return "forward scan: extra key " + at(), ""
		}
		if string(it.Key()) != live[i] || !bytes.Equal(it.Value(), m.live[live[i]]) {
			return fmt.Sprintf("forward scan: got %s=%s, expected %s=%s", at(), hexs(it.Value()),
				hexs([]byte(live[i])), hexs(m.live[live[i]])), ""
		}
		i++
	}
	if err := it.Error(); err != nil {
		return "forward scan: " + err.Error(), ""
	}
	if i != len(live) {
		return "forward scan: missing key " + hexs([]byte(live[i])), ""
	}
	i = len(live) - 1
	for ok := it.Last(); ok; ok = it.Prev() {
		if i < 0 {
			return "backward scan: extra key " + at(), ""
		}
		if string(it.Key()) != live[i] || !bytes.Equal(it.Value(), m.live[live[i]]) {
			return fmt.Sprintf("backward scan: got %s, expected %s", at(), hexs([]byte(live[i]))), ""
		}
		i--
	}
	if err := it.Error(); err != nil {
		return "backward scan: " + err.Error(), ""
	}
	if i >= 0 {
		return "backward scan: missing key " + hexs([]byte(live[i])), ""
	}
	// Seek to every deleted key: lands on the next live key; Prev from there lands before it.
	for _, k := range absent {
		n := sort.Search(len(live), func(j int) bool { return m.compare([]byte(live[j]), []byte(k)) > 0 })
		it.Seek([]byte(k))
		if n == len(live) {
			if it.Valid() {
				return fmt.Sprintf("Seek(%s) landed on %s, expected the end", hexs([]byte(k)), at()), ""
			}
			continue
		}
		if !it.Valid() || string(it.Key()) != live[n] {
			return fmt.Sprintf("Seek(%s) landed on %s, expected %s", hexs([]byte(k)), at(), hexs([]byte(live[n]))), ""
		}
		it.Prev()
		if n == 0 && it.Valid() {
			return fmt.Sprintf("Prev after Seek(%s) landed on %s, expected the start", hexs([]byte(k)), at()), ""
		}
		if n > 0 && (!it.Valid() || string(it.Key()) != live[n-1]) {
			return fmt.Sprintf("Prev after Seek(%s) landed on %s, expected %s", hexs([]byte(k)), at(),
				hexs([]byte(live[n-1]))), ""
		}
	}
	if err := it.Error(); err != nil {
		return "seek: " + err.Error(), ""
	}
	return "", fmt.Sprintf("%d live keys, %d deleted keys; gets, forward and backward scans, seeks match",
		len(live), len(absent))
}

func newPeer(recipePath string) *peer {
	p := &peer{rc: loadRecipe(recipePath), cmp: comparer.DefaultComparer}
	if p.rc.reverse {
		p.cmp = reverseBytewise{}
	}
	return p
}

// logSummary counts the log files left behind: their records are replayed by the next open.
func logSummary(dir string) string {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	var total int64
	for _, l := range logs {
		st, err := os.Stat(l)
		if err != nil {
			fatalf(1, "%v", err)
		}
		total += st.Size()
	}
	return fmt.Sprintf("log files %d, log bytes %d", len(logs), total)
}

// write creates the database (create) or, for update, opens an existing one and performs the
// steps on top of what it holds; the model knows only the recipe's writes, so update refuses
// check and verify-snapshot steps.
func write(p *peer, dir, recipePath string, create bool) {
	if !create {
		for _, o := range p.rc.ops {
			if o.kind == opCheck || o.kind == opVerifySnapshot {
				fatalf(2, "%s:%d: update cannot check (the database holds more than the recipe)", recipePath, o.line)
			}
		}
	}
	m := newModel(p.cmp.Compare)
	type snap struct {
		s *leveldb.Snapshot
		m *model
	}
	snaps := map[string]snap{}
	release := func() {
		for _, s := range snaps {
			s.s.Release()
		}
		snaps = map[string]snap{}
	}
	p.open(dir, create)
	var batch *leveldb.Batch
	for _, o := range p.rc.ops {
		at := fmt.Sprintf("%s:%d", recipePath, o.line)
		check := func(err error) {
			if err != nil {
				fatalf(1, "%s: %v", at, err)
			}
		}
		switch o.kind {
		case opPut, opDelete:
			m.apply(o)
			switch {
			case batch != nil && o.kind == opPut:
				batch.Put(o.key, o.value)
			case batch != nil:
				batch.Delete(o.key)
			case o.kind == opPut:
				check(p.db.Put(o.key, o.value, nil))
			default:
				check(p.db.Delete(o.key, nil))
			}
		case opBatchBegin:
			batch = new(leveldb.Batch)
		case opBatchEnd:
			check(p.db.Write(batch, nil))
			batch = nil
		case opFlush:
			// No public flush: opening a transaction first writes the memtable to a table.
			tr, err := p.db.OpenTransaction()
			check(err)
			tr.Discard()
		case opCompact:
			check(p.db.CompactRange(util.Range{}))
		case opReopen:
			release()
			check(p.db.Close())
			p.open(dir, false)
		case opSnapshot:
			if _, ok := snaps[string(o.value)]; ok {
				fatalf(2, "%s: snapshot '%s' already exists", at, o.value)
			}
			s, err := p.db.GetSnapshot()
			check(err)
			snaps[string(o.value)] = snap{s, m.clone()}
		case opVerifySnapshot, opCheck:
			var msg string
			if o.kind == opCheck {
				msg, _ = compare(p.db, m)
			} else if s, ok := snaps[string(o.value)]; ok {
				msg, _ = compare(s.s, s.m)
			} else {
				msg = fmt.Sprintf("no snapshot '%s' (never taken, or released by reopen)", o.value)
			}
			if msg != "" {
				fatalf(1, "%s: %s", at, msg)
			}
		}
	}
	release()
	if err := p.db.Close(); err != nil {
		fatalf(1, "close: %v", err)
	}
	command := "write"
	if !create {
		command = "update"
	}
	fmt.Printf("%s ok: %d ops, %d live keys; %s\n", command, len(p.rc.ops), len(m.live), logSummary(dir))
}

func verify(p *peer, dir string) {
	m := newModel(p.cmp.Compare)
	for _, o := range p.rc.ops {
		if o.kind == opPut || o.kind == opDelete {
			m.apply(o)
		}
	}
	p.open(dir, false)
	defer p.db.Close()
	msg, summary := compare(p.db, m)
	if msg != "" {
		p.db.Close()
		fatalf(1, "verify %s: %s", dir, msg)
	}
	fmt.Printf("verify ok: %s\n", summary)
}

// expand prints the recipe with every option spelled out and every generator expanded
// into plain steps with hex keys and values: the canonical form, itself a valid recipe.
func expand(rc *recipe) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	comp, cmp := "none", "bytewise"
	if rc.snappy {
		comp = "snappy"
	}
	if rc.reverse {
		cmp = "reverse"
	}
	fmt.Fprintf(w, "option compression=%s\noption comparator=%s\noption block_size=%d\noption restart_interval=%d\n"+
		"option bloom_bits=%d\noption write_buffer_size=%d\noption max_file_size=%d\n",
		comp, cmp, rc.blockSize, rc.restartInterval, rc.bloomBits, rc.writeBufferSize, rc.maxFileSize)
	names := []string{"put", "delete", "batch begin", "batch end", "flush", "compact", "reopen",
		"snapshot", "verify-snapshot", "check"}
	full := func(b []byte) string {
		if len(b) == 0 {
			return "-"
		}
		return hex.EncodeToString(b)
	}
	for _, o := range rc.ops {
		line := names[o.kind]
		switch o.kind {
		case opPut:
			line += " " + full(o.key) + " " + full(o.value)
		case opDelete:
			line += " " + full(o.key)
		case opSnapshot, opVerifySnapshot:
			line += " " + string(o.value)
		}
		fmt.Fprintln(w, line)
	}
}

func main() {
	args := os.Args[1:]
	var flags []string
	for len(args) > 1 && strings.HasPrefix(args[1], "--") {
		flags = append(flags, args[1])
		args = append(args[:1], args[2:]...)
	}
	usage := func() {
		fmt.Fprintln(os.Stderr, "usage: go_peer write [--goleveldb-filter-name] <dir> <recipe>\n"+
			"       go_peer update [--goleveldb-filter-name] <dir> <recipe>\n"+
			"       go_peer verify [--strict-all] [--read-only] <dir> <recipe>\n"+
			"       go_peer expand <recipe>")
		os.Exit(2)
	}
	if len(args) == 2 && args[0] == "expand" {
		expand(loadRecipe(args[1]))
		return
	}
	if len(args) != 3 {
		usage()
	}
	p := newPeer(args[2])
	for _, f := range flags {
		switch {
		case f == "--goleveldb-filter-name" && (args[0] == "write" || args[0] == "update"):
			p.nativeFilter = true
		case f == "--strict-all" && args[0] == "verify":
			p.strictAll = true
		case f == "--read-only" && args[0] == "verify":
			p.readOnly = true
		default:
			usage()
		}
	}
	switch args[0] {
	case "write":
		write(p, args[1], args[2], true)
	case "update":
		write(p, args[1], args[2], false)
	case "verify":
		verify(p, args[1])
	default:
		usage()
	}
}
