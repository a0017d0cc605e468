package gomoku

// Line patterns.
//
// For every empty intersection, every direction and every colour the
// board keeps a key: the ten intersections around it on that line (five
// on each side), one base-3 digit each, seen from that colour: empty, own
// stone, or blocked (an opponent's stone or the edge). A precomputed table
// turns the key into the pattern that a stone of that colour would make if
// it were played there. A move changes only the keys of the empty
// intersections among the forty within five steps of it on its four
// lines, so nothing is rescanned (an occupied point's key is stale until
// its stone is taken back: board.go). Base 3 rather than two bits a cell:
// the key fits in 16 bits, a table needs 3^10 = 59,049 entries (in a 64
// KiB array, patternTables) instead of 2^20 (1 MiB), and a neighbour's
// change is one addition.

// pattern is what a stone played at an intersection makes on one line,
// ordered from worst to best.
type pattern uint8

const (
	pNone pattern = iota // no five can ever pass through here on this line
	pB1                  // one stone with room for a five, nothing more
	pB2                  // a "dead" two: one more stone makes a dead three
	pF2                  // an open two: one more stone makes an open three
	pB3                  // a dead three: one more stone makes a four
	pF3                  // an open three: one more stone makes an open four
	pB4                  // a four: exactly one point completes five
	pF4                  // an open four (or two fours on the line): two points complete five
	pF5                  // five: this stone wins
	numPatterns
)

// overlineBit is set in a table entry (beside the pattern in the low four
// bits) when, under an exactly-five rule, the stone would make six or more
// on this line; the renju forbidden-point check uses it as a quick filter.
const overlineBit = 0x10

// patternMask extracts the pattern from a table entry.
const patternMask = 0x0f

// Key cell codes, one base-3 digit each.
const (
	keyEmpty   = 0
	keyOwn     = 1
	keyBlocked = 2
)

// keyCells is the number of neighbours a key describes: five on each side,
// enough to tell an exact five from an overline.
const keyCells = 10

// numKeys is the number of keys: 3^keyCells.
const numKeys = 59049

// keyDigit holds the powers of three: keyDigit[n] is the weight of a key's
// digit n.
var keyDigit = [keyCells]uint16{1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683}

// keyWeight returns the weight in a key of the neighbour at offset k (k in
// -5..-1, 1..5): digits 0-4 are the cells before the point (offset -5
// first), digits 5-9 the cells after it.
func keyWeight(k int) uint16 {
	if k < 0 {
		return keyDigit[k+5]
	}
	return keyDigit[k+4]
}

// patternTables[exact] maps a key to a table entry; exact selects the
// exactly-five rule. A table has 2^16 entries, of which the keys use the
// first numKeys: indexed by a uint16, it needs no bounds check in the
// play's inner loop (setNeighbours).
var patternTables [2]*[1 << 16]uint8

func init() {
	patternTables[0] = buildPatternTable(false)
	patternTables[1] = buildPatternTable(true)
}

// lineOf unpacks a key into an 11-cell line with the own stone in the
// middle (index 5).
func lineOf(key uint32) (l [11]uint8) {
	for k := -5; k <= 5; k++ {
		if k == 0 {
			l[5] = keyOwn
			continue
		}
		l[k+5] = uint8(key / uint32(keyWeight(k)) % 3)
	}
	return l
}

// runThrough returns the length of the run of own stones through index i of
// the line, and its first and last index.
func runThrough(l *[11]uint8, i int) (n, lo, hi int) {
	lo, hi = i, i
	for lo > 0 && l[lo-1] == keyOwn {
		lo--
	}
	for hi < 10 && l[hi+1] == keyOwn {
		hi++
	}
	return hi - lo + 1, lo, hi
}

// buildPatternTable classifies every key. Keys are visited from the most
// own stones to the fewest, so that "one more stone at j" is always a key
// already classified.
func buildPatternTable(exact bool) *[1 << 16]uint8 {
	table := new([1 << 16]uint8)
	var buckets [keyCells + 1][]uint32
	var digits [keyCells]uint32
	for {
		var key uint32
		own := 0
		for i, d := range digits {
			key += d * uint32(keyDigit[i])
			if d == keyOwn {
				own++
			}
		}
		buckets[own] = append(buckets[own], key)
		i := 0
		for i < keyCells {
			digits[i]++
			if digits[i] < 3 {
				break
			}
			digits[i] = 0
			i++
		}
		if i == keyCells {
			break
		}
	}
	for own := keyCells; own >= 0; own-- {
		for _, key := range buckets[own] {
			table[key] = classify(table, key, exact)
		}
	}
	return table
}

// classify computes the table entry of one key.
func classify(table *[1 << 16]uint8, key uint32, exact bool) uint8 {
	l := lineOf(key)
	n, _, _ := runThrough(&l, 5)
	if n >= 5 && !(exact && n > 5) {
		return uint8(pF5)
	}
	var flags uint8
	if n > 5 {
		flags = overlineBit
	}
	// Count the points that would complete a five through the middle.
	completions := 0
	for j := 0; j < 11; j++ {
		if j == 5 || l[j] != keyEmpty {
			continue
		}
		l[j] = keyOwn
		m, lo, hi := runThrough(&l, j)
		if lo <= 5 && 5 <= hi && m >= 5 && !(exact && m > 5) {
			completions++
		}
		l[j] = keyEmpty
	}
	switch {
	case completions >= 2:
		return uint8(pF4) | flags
	case completions == 1:
		return uint8(pB4) | flags
	}
	// Otherwise: the best pattern one more stone on this line can reach.
	best := pNone
	for k := -5; k <= 5; k++ {
		if k == 0 || l[k+5] != keyEmpty {
			continue
		}
		p := pattern(table[key+keyOwn*uint32(keyWeight(k))] & patternMask)
		if p > best {
			best = p
		}
	}
	var p pattern
	switch best {
	case pF4:
		p = pF3
	case pB4:
		p = pB3
	case pF3:
		p = pF2
	case pB3:
		p = pB2
	case pF2, pB2, pB1:
		p = pB1
	default:
		p = pNone
	}
	return uint8(p) | flags
}
