package reversi

import (
	"math/bits"
	"unsafe"
)

// hashPosition returns the hash of the side-relative position: the two
// bitboards (each XOR-ed with a constant, so that an empty board does not
// zero the product) multiplied into a 128-bit product whose halves are
// folded together, then the same again with a constant. Each bit of a
// full product depends on many bits of both factors, and the second round
// leaves each of the low bits (the tables index by them) depending on
// every square. Until the thirty-second session it was Zobrist hashing
// over 8-square chunks: 16 loads from a 32 KiB key table, as large as the
// processor's first-level data cache; the multiplies take about 2% less
// time on FFO and in the midgame (benchmarks.md, thirty-second session). TestHashPositionSpreads checks
// that the bits the tables index by are uniform on game positions (whose
// neighbours differ in a few discs), TestHashPositionAvalanche that a
// change of any one square flips each of them half the time (one round
// alone, or the multiply-and-fold of 64-bit products, fails it).
func hashPosition(me, opp uint64) uint64 {
	hi, lo := bits.Mul64(me^0x9E3779B97F4A7C15, opp^0xD6E8FEB86659FD93)
	hi, lo = bits.Mul64(hi^lo, 0xBF58476D1CE4E5B9)
	return hi ^ lo
}

// ttEntry is one transposition-table slot. It keeps the full position, so a
// hash collision can never return another position's bounds.
type ttEntry struct {
	me, opp uint64
	lower   int16 // proven lower bound on the score
	upper   int16 // proven upper bound on the score
	depth   int8  // search depth (midgame) or empties (endgame) of the bounds
	move    int8  // best move found, or -1
	gen     uint8 // search generation, to prefer replacing stale entries
	// conf is how far the bounds can be trusted: provenExact for a proof,
	// else the cut threshold (in hundredths of a sigma) of the selective
	// endgame pass that found them (endcut.go). A search trusts the bounds
	// of entries at least as sure as itself; it takes any entry's move.
	conf uint8
}

// provenExact is the conf of bounds proven without selective cuts.
const provenExact = 255

// ttEntryBytes is the size of ttEntry in memory, for sizing tables.
const ttEntryBytes = 24

// table is a transposition table of two-slot buckets. Each slot is replaced
// when it holds the same position, is from an older search, or is shallower.
type table struct {
	entries []ttEntry
	mask    uint64 // len(entries)-1 with the lowest bit cleared: bucket index
	gen     uint8
	// perSearch makes the table forget at each search (newSearch): entries
	// of an older search are neither found nor kept. The midgame table is
	// so: its bounds depend on the search that made them (depth, the
	// parity of the leaves, Multi-ProbCut's cuts), and with them a search
	// played in a game reached half a ply less in 3 s than the same search
	// on a fresh engine, 0.7-0.9 ply less at 26-39 empties (issue 16's
	// forty-fifth session). The endgame table's bounds hold for good.
	perSearch bool
}

// newTable makes a table of about the given size in bytes (a power of two
// number of entries, at least 1024).
func newTable(sizeBytes int) *table {
	n := 1024
	for n*2*ttEntryBytes <= sizeBytes {
		n *= 2
	}
	t := &table{entries: make([]ttEntry, n), mask: uint64(n-1) &^ 1}
	adviseHugePages(t.entries) // before clear writes the pages
	t.clear()
	return t
}

// clear empties the table.
func (t *table) clear() {
	for i := range t.entries {
		t.entries[i] = ttEntry{move: -1, conf: provenExact}
	}
	t.gen = 0
}

// newSearch starts a search: a new generation of entries. A perSearch table
// is emptied for real once its generation counter wraps, so that an entry
// 256 searches old is never taken for a current one.
func (t *table) newSearch() {
	t.gen++
	if t.gen == 0 && t.perSearch {
		t.clear()
		t.gen = 1 // the cleared slots (generation 0) are not current
	}
}

// current reports whether an entry of the slot's position may be used: in a
// perSearch table only the current search's entries are.
func (t *table) current(e *ttEntry) bool { return !t.perSearch || e.gen == t.gen }

// probe returns the entry for the position, if stored.
func (t *table) probe(me, opp uint64) (ttEntry, bool) {
	return t.probeHash(hashPosition(me, opp), me, opp)
}

// probeHash is probe for a position whose hash (hashPosition) is h: a
// caller that probes and then stores hashes once.
func (t *table) probeHash(h, me, opp uint64) (ttEntry, bool) {
	i := h & t.mask
	b := t.entries[i : i+2 : i+2]
	if b[0].me == me && b[0].opp == opp && (me|opp) != 0 && t.current(&b[0]) {
		return b[0], true
	}
	if b[1].me == me && b[1].opp == opp && (me|opp) != 0 && t.current(&b[1]) {
		return b[1], true
	}
	return ttEntry{}, false
}

// store records the result of a search of the position with window
// (alpha, beta): a score <= alpha is an upper bound, >= beta a lower bound,
// in between exact.
func (t *table) store(me, opp uint64, depth int, alpha, beta, score int, move int) {
	t.storeConf(me, opp, depth, provenExact, alpha, beta, score, move)
}

// storeConf is store for a result whose bounds hold with confidence conf
// (ttEntry.conf).
func (t *table) storeConf(me, opp uint64, depth int, conf uint8, alpha, beta, score int, move int) {
	t.storeHash(hashPosition(me, opp), me, opp, depth, conf, alpha, beta, score, move)
}

// storeHash is storeConf for a position whose hash is h.
func (t *table) storeHash(h, me, opp uint64, depth int, conf uint8, alpha, beta, score int, move int) {
	i := h & t.mask
	b := t.entries[i : i+2 : i+2]
	slot := &b[0]
	switch {
	case b[0].me == me && b[0].opp == opp:
	case b[1].me == me && b[1].opp == opp:
		slot = &b[1]
	default:
		// Keep the more valuable entry: current generation and deeper.
		if worth(&b[1], t.gen) < worth(&b[0], t.gen) {
			slot = &b[1]
		}
	}
	stale := !t.current(slot) // an older search's entry of this position: start over
	if slot.me == me && slot.opp == opp && !stale && (int(slot.depth) > depth || int(slot.depth) == depth && slot.conf > conf) {
		// A deeper or surer result is worth more than this one: keep it.
		if slot.move < 0 && move >= 0 {
			slot.move = int8(move)
		}
		return
	}
	if slot.me != me || slot.opp != opp || int(slot.depth) != depth || slot.conf != conf || stale {
		// Field by field, not as a composite literal: the compiler built
		// the literal on the stack and copied it with 16-byte loads that
		// the processor cannot forward from the literal's smaller stores,
		// a stall that took a quarter of this function's time (thirtieth
		// session). gen is set below.
		slot.me, slot.opp = me, opp
		slot.lower, slot.upper = -32000, 32000
		slot.depth, slot.move, slot.conf = int8(depth), -1, conf
	}
	switch {
	case score <= alpha:
		if int16(score) < slot.upper {
			slot.upper = int16(score)
		}
	case score >= beta:
		if int16(score) > slot.lower {
			slot.lower = int16(score)
		}
	default:
		slot.lower, slot.upper = int16(score), int16(score)
	}
	if slot.lower > slot.upper {
		// Bounds from searches that disagree (possible in the midgame with
		// a depth-dependent score): keep the newest result alone.
		slot.lower, slot.upper = -32000, 32000
		if score <= alpha {
			slot.upper = int16(score)
		} else if score >= beta {
			slot.lower = int16(score)
		} else {
			slot.lower, slot.upper = int16(score), int16(score)
		}
	}
	if move >= 0 {
		slot.move = int8(move)
	}
	slot.gen = t.gen
}

// worth ranks entries for replacement: stale ones first, then shallow ones.
// It takes a pointer: a copy of the entry cost as much as the ranking.
func worth(e *ttEntry, gen uint8) int {
	w := int(e.depth)
	if e.gen == gen {
		w += 128
	}
	if e.me|e.opp == 0 {
		w = -1
	}
	return w
}

// popcount is bits.OnesCount64, named for brevity in the search code.
func popcount(x uint64) int { return bits.OnesCount64(x) }

// prefetch asks the processor to bring the bucket of hash h into its cache,
// ahead of the probe that will read it.
func (t *table) prefetch(h uint64) {
	prefetch(unsafe.Pointer(&t.entries[h&t.mask]))
}
