package main

// Recipe parsing and the expected-content model; see interop/RECIPES.md.

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

type opKind int

const (
	opPut opKind = iota
	opDelete
	opBatchBegin
	opBatchEnd
	opFlush
	opCompact
	opReopen
	opSnapshot
	opVerifySnapshot
	opCheck
)

type op struct {
	kind  opKind
	key   []byte
	value []byte // also the snapshot name
	line  int
}

type recipe struct {
	snappy, reverse                       bool
	blockSize, restartInterval, bloomBits int
	writeBufferSize, maxFileSize          int
	ops                                   []op
}

// rng is splitmix64, implemented identically by every peer.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *rng) uniform(n uint64) uint64 { return r.next() % n }

func (r *rng) bytes(n uint64) []byte {
	b := make([]byte, n)
	for i := uint64(0); i < n; i += 8 {
		v := r.next()
		for j := uint64(0); j < 8 && i+j < n; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return b
}

type lineError string

func parseNum(s string) uint64 {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		panic(lineError("bad number '" + s + "'"))
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		panic(lineError("bad number '" + s + "'"))
	}
	return v
}

func parseHex(s string) []byte {
	if s == "-" {
		return []byte{}
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(lineError("bad hex '" + s + "'"))
	}
	return b
}

// parseValue accepts hex, "-", rand:<seed>:<len> or repeat:<hexbyte>:<len>.
func parseValue(s string) []byte {
	parts := strings.Split(s, ":")
	if len(parts) == 1 {
		return parseHex(s)
	}
	if len(parts) != 3 {
		panic(lineError("bad value '" + s + "'"))
	}
	n := parseNum(parts[2])
	switch parts[0] {
	case "rand":
		r := rng{parseNum(parts[1])}
		return r.bytes(n)
	case "repeat":
		c := parseHex(parts[1])
		if len(c) != 1 {
			panic(lineError("repeat needs one byte"))
		}
		return bytes.Repeat(c, int(n))
	}
	panic(lineError("bad value '" + s + "'"))
}

func generate(t []string, line int, out []op) []op {
	if len(t) < 4 {
		panic(lineError("usage: gen <kind> <seed> <count> [param=value]..."))
	}
	kind := t[1]
	r := rng{parseNum(t[2])}
	count := parseNum(t[3])
	var p map[string]string
	switch kind {
	case "seq":
		p = map[string]string{"start": "0", "step": "1", "vmin": "0", "vmax": "100", "prefix": "-", "vkind": "rand"}
	case "binary":
		p = map[string]string{"kmin": "0", "kmax": "24", "vmin": "0", "vmax": "64", "vkind": "rand"}
	case "churn":
		p = map[string]string{"keys": "64", "vmin": "1", "vmax": "32", "prefix": "63", "vkind": "rand"}
	default:
		panic(lineError("unknown generator '" + kind + "'"))
	}
	for _, kv := range t[4:] {
		k, v, ok := strings.Cut(kv, "=")
		if _, known := p[k]; !ok || !known {
			panic(lineError("bad parameter '" + kv + "' for gen " + kind))
		}
		p[k] = v
	}
	num := func(k string) uint64 { return parseNum(p[k]) }
	vmin, vmax := num("vmin"), num("vmax")
	if vmax < vmin {
		panic(lineError("vmax < vmin"))
	}
	if p["vkind"] != "rand" && p["vkind"] != "half" {
		panic(lineError("vkind must be rand or half"))
	}
	half := p["vkind"] == "half" // half: random first half, zero second half
	value := func() []byte {
		n := vmin + r.uniform(vmax-vmin+1)
		if half {
			return append(r.bytes(n/2), make([]byte, n-n/2)...)
		}
		return r.bytes(n)
	}
	for i := uint64(0); i < count; i++ {
		o := op{kind: opPut, value: []byte{}, line: line}
		switch kind {
		case "seq":
			o.key = append(parseHex(p["prefix"]), fmt.Sprintf("%012d", num("start")+i*num("step"))...)
			o.value = value()
		case "binary":
			kmin, kmax := num("kmin"), num("kmax")
			if kmax < kmin {
				panic(lineError("kmax < kmin"))
			}
			klen := kmin + r.uniform(kmax-kmin+1)
			o.key = make([]byte, 0, klen)
			for j := uint64(0); j < klen; j++ {
				switch c := r.uniform(4); c {
				case 0:
					o.key = append(o.key, 0x00)
				case 1:
					o.key = append(o.key, 0xff)
				default:
					o.key = append(o.key, byte(r.uniform(256)))
				}
			}
			o.value = value()
		case "churn":
			o.key = append(parseHex(p["prefix"]), fmt.Sprintf("%06d", r.uniform(num("keys")))...)
			if x := r.uniform(100); x < 30 {
				o.kind = opDelete
			} else if x >= 40 {
				o.value = value()
			}
		}
		out = append(out, o)
	}
	return out
}

func fatalf(code int, format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "go_peer: "+format+"\n", args...)
	os.Exit(code)
}

func loadRecipe(path string) (rc *recipe) {
	f, err := os.Open(path)
	if err != nil {
		fatalf(2, "cannot read recipe %s", path)
	}
	defer f.Close()
	rc = &recipe{snappy: true, blockSize: 4096, restartInterval: 16,
		writeBufferSize: 4 << 20, maxFileSize: 2 << 20}
	line := 0
	inBatch := false
	defer func() {
		if e := recover(); e != nil {
			if msg, ok := e.(lineError); ok {
				fatalf(2, "%s:%d: %s", path, line, msg)
			}
			panic(e)
		}
	}()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		t := strings.Fields(text)
		if len(t) == 0 {
			continue
		}
		c := t[0]
		want := func(n int) {
			if len(t) != n {
				panic(lineError(fmt.Sprintf("'%s' takes %d argument(s)", c, n-1)))
			}
		}
		simple := func(k opKind) { rc.ops = append(rc.ops, op{kind: k, line: line}) }
		batchOK := c == "put" || c == "delete" || c == "gen" || (c == "batch" && len(t) > 1 && t[1] == "end")
		if inBatch && !batchOK {
			panic(lineError("'" + c + "' inside a batch"))
		}
		switch c {
		case "option":
			want(2)
			if len(rc.ops) > 0 {
				panic(lineError("options must come before the first step"))
			}
			k, v, _ := strings.Cut(t[1], "=")
			switch {
			case k == "compression" && (v == "snappy" || v == "none"):
				rc.snappy = v == "snappy"
			case k == "comparator" && (v == "bytewise" || v == "reverse"):
				rc.reverse = v == "reverse"
			case k == "block_size":
				rc.blockSize = int(parseNum(v))
			case k == "restart_interval":
				rc.restartInterval = int(parseNum(v))
			case k == "bloom_bits":
				rc.bloomBits = int(parseNum(v))
			case k == "write_buffer_size":
				rc.writeBufferSize = int(parseNum(v))
			case k == "max_file_size":
				rc.maxFileSize = int(parseNum(v))
			default:
				panic(lineError("unknown option '" + t[1] + "'"))
			}
		case "put":
			want(3)
			rc.ops = append(rc.ops, op{kind: opPut, key: parseHex(t[1]), value: parseValue(t[2]), line: line})
		case "delete":
			want(2)
			rc.ops = append(rc.ops, op{kind: opDelete, key: parseHex(t[1]), line: line})
		case "gen":
			rc.ops = generate(t, line, rc.ops)
		case "batch":
			want(2)
			if t[1] == "begin" && !inBatch {
				inBatch = true
				simple(opBatchBegin)
			} else if t[1] == "end" && inBatch {
				inBatch = false
				simple(opBatchEnd)
			} else {
				panic(lineError("unbalanced 'batch " + t[1] + "'"))
			}
		case "flush", "compact", "reopen", "check":
			want(1)
			simple(map[string]opKind{"flush": opFlush, "compact": opCompact, "reopen": opReopen, "check": opCheck}[c])
		case "snapshot", "verify-snapshot":
			want(2)
			k := opSnapshot
			if c == "verify-snapshot" {
				k = opVerifySnapshot
			}
			rc.ops = append(rc.ops, op{kind: k, value: []byte(t[1]), line: line})
		default:
			panic(lineError("unknown step '" + c + "'"))
		}
	}
	if err := sc.Err(); err != nil {
		fatalf(2, "%s: %v", path, err)
	}
	if inBatch {
		fatalf(2, "%s: batch not ended", path)
	}
	return rc
}

// model is the expected content: the puts and deletes applied in order.
type model struct {
	compare func(a, b []byte) int
	live    map[string][]byte
	touched map[string]bool
}

func newModel(compare func(a, b []byte) int) *model {
	return &model{compare: compare, live: map[string][]byte{}, touched: map[string]bool{}}
}

func (m *model) apply(o op) {
	m.touched[string(o.key)] = true
	if o.kind == opPut {
		m.live[string(o.key)] = o.value
	} else {
		delete(m.live, string(o.key))
	}
}

func (m *model) clone() *model {
	c := newModel(m.compare)
	for k, v := range m.live {
		c.live[k] = v
	}
	for k := range m.touched {
		c.touched[k] = true
	}
	return c
}

// sortedLive returns the live keys in comparator order; absent the deleted keys in order.
func (m *model) sorted() (live, absent []string) {
	for k := range m.touched {
		if _, ok := m.live[k]; ok {
			live = append(live, k)
		} else {
			absent = append(absent, k)
		}
	}
	less := func(s []string) func(i, j int) bool {
		return func(i, j int) bool { return m.compare([]byte(s[i]), []byte(s[j])) < 0 }
	}
	sort.Slice(live, less(live))
	sort.Slice(absent, less(absent))
	return live, absent
}
