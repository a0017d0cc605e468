package gomoku

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Fitting the move score (movescore.go) to the choices of a deeper search,
// in two steps, both skipped in the normal suite.
//
// Labelling: positions sampled as for the evaluation (samplePosition, with
// detours, so that positions a few plausible moves away from a game's are
// among them) are searched by the full engine with a fixed node budget,
// and each is written with the move it chose:
//
//	GOMOKU_MOVELABEL=engine/gomoku/testdata/fitgames.txt.gz GOMOKU_MOVELABEL_OUT=moves.txt \
//	  [GOMOKU_LABEL_NODES=50000] [GOMOKU_LABEL_PER_GAME=2] [GOMOKU_LABEL_SEED=1] \
//	  [GOMOKU_LABEL_DETOUR=4] go test -run TestLabelMoves -v -timeout 0 ./engine/gomoku
//
// A line is the position's record, the chosen move, the search's score and
// a hash of the game's record.
//
// Fitting: a conditional logit over each position's candidates (genMoves
// at the root, without history): P(move) is proportional to
// exp(moveScoreOf(features)), fitted by gradient descent with a small L2
// penalty; every fifth game is held out, and the fit reports how often
// the search's choice is among the first 1, 3, 6 and 10 moves of the
// fitted order and of the present order (the move order's pattern
// values):
//
//	GOMOKU_MOVEFIT=moves.txt go test -run TestFitMoveScore -v ./engine/gomoku
func TestLabelMoves(t *testing.T) {
	files, out := labelFiles(t, "GOMOKU_MOVELABEL", "moves")
	searchSampled(t, files, 50000, 2, 4, func(b *Board, r Result, _ loggedGame, gameHash uint32) {
		fmt.Fprintf(out, "%s %s %d %08x\n", FormatRecord(b.Moves()), r.Best, r.Score, gameHash)
	})
}

// moveSample is a labelled position: its candidates' features and which
// of them the search chose.
type moveSample struct {
	feats  [][]int // per candidate, the indices of its active features
	values []int32 // per candidate, the present move order's value
	class  []int   // per candidate: 1 a move reduced by the selective search, 2 one not reduced only because it makes an open three
	best   int     // the chosen candidate's index
	held   bool
}

func readMoveLabels(t *testing.T, files string) []moveSample {
	var samples []moveSample
	// genMoves reads only the engine's options, history and killers: one
	// bare Engine (no options: the pattern-value order; no tables) serves
	// every line, instead of a full NewEngine (22 MiB) for each.
	e := &Engine{}
	for _, name := range strings.Split(files, ",") {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			f := strings.Fields(line)
			if len(f) != 4 {
				t.Fatalf("%s: bad line %q", name, line)
			}
			moves, err1 := ParseRecord(f[0], 15)
			best, err2 := ParseRecord(f[1], 15)
			score, err3 := strconv.Atoi(f[2])
			game, err4 := strconv.ParseUint(f[3], 16, 32)
			if err1 != nil || err2 != nil || err3 != nil || err4 != nil || len(best) != 1 {
				t.Fatalf("%s: bad line %q", name, line)
			}
			if score >= WinThreshold || score <= -WinThreshold {
				continue // proofs: the threat searches' moves, not the main search's
			}
			b, _ := NewBoard(15, Freestyle)
			for _, p := range moves {
				if err := b.Play(p); err != nil {
					t.Fatalf("%s: %v in %q", name, err, line)
				}
			}
			var buf [maxMoves]scored
			cands := e.genMoves(b, buf[:0], -1, maxPly)
			s := moveSample{best: -1, held: game%5 == 0}
			for k, m := range cands {
				var fb [numMoveFeatures]int
				s.feats = append(s.feats, slices.Clone(moveFeatures(b, m.move, fb[:0])))
				s.values = append(s.values, m.score)
				mine, theirs := b.threat[b.ToMove()][m.move], b.threat[b.ToMove().Other()][m.move]
				c := 0
				switch {
				case reducible(mine, theirs):
					c = 1
				case mine == tThree && theirs < tThree2:
					c = 2
				}
				s.class = append(s.class, c)
				if m.move == b.index(best[0]) {
					s.best = k
				}
			}
			if s.best >= 0 && len(cands) > 1 {
				samples = append(samples, s)
			}
		}
	}
	return samples
}

// rankOf returns the place (0-based) of candidate best when the candidates
// are ordered by score, ties counted against it.
func rankOf(score []float64, best int) int {
	r := 0
	for k, v := range score {
		if k != best && v >= score[best] {
			r++
		}
	}
	return r
}

func TestFitMoveScore(t *testing.T) {
	files := os.Getenv("GOMOKU_MOVEFIT")
	if files == "" {
		t.Skip("set GOMOKU_MOVEFIT to move label files to fit the move score")
	}
	samples := readMoveLabels(t, files)
	w := make([]float64, numMoveFeatures)
	l2 := 1e-3
	score := func(s *moveSample, out []float64) []float64 {
		out = out[:0]
		for _, f := range s.feats {
			v := 0.0
			for _, j := range f {
				v += w[j]
			}
			out = append(out, v)
		}
		return out
	}
	loss := func(held bool) (float64, int) {
		var sum float64
		n := 0
		var sc []float64
		for i := range samples {
			s := &samples[i]
			if s.held != held {
				continue
			}
			sc = score(s, sc)
			mx := slices.Max(sc)
			var z float64
			for _, v := range sc {
				z += math.Exp(v - mx)
			}
			sum += -(sc[s.best] - mx - math.Log(z))
			n++
		}
		return sum / float64(n), n
	}
	var sc []float64
	grad := make([]float64, numMoveFeatures)
	m1 := make([]float64, numMoveFeatures)
	m2 := make([]float64, numMoveFeatures)
	for it := 1; it <= 400; it++ {
		clear(grad)
		n := 0
		for i := range samples {
			s := &samples[i]
			if s.held {
				continue
			}
			n++
			sc = score(s, sc)
			mx := slices.Max(sc)
			var z float64
			for k := range sc {
				sc[k] = math.Exp(sc[k] - mx)
				z += sc[k]
			}
			for k, f := range s.feats {
				p := sc[k] / z
				if k == s.best {
					p--
				}
				for _, j := range f {
					grad[j] += p
				}
			}
		}
		for j := range w { // Adam
			g := grad[j]/float64(n) + l2*w[j]
			m1[j] = 0.9*m1[j] + 0.1*g
			m2[j] = 0.999*m2[j] + 0.001*g*g
			mh := m1[j] / (1 - math.Pow(0.9, float64(it)))
			vh := m2[j] / (1 - math.Pow(0.999, float64(it)))
			w[j] -= 0.05 * mh / (math.Sqrt(vh) + 1e-8)
		}
		if it%100 == 0 {
			tr, ntr := loss(false)
			te, nte := loss(true)
			t.Logf("iteration %d: loss %.4f on %d positions, held out %.4f on %d", it, tr, ntr, te, nte)
		}
	}
	// Top-k on the held-out positions: fitted order against the present one.
	ks := []int{1, 3, 6, 10}
	var hitFit, hitOld [4]int
	n := 0
	for i := range samples {
		s := &samples[i]
		if !s.held {
			continue
		}
		n++
		sc = score(s, sc)
		old := make([]float64, len(s.values))
		for k, v := range s.values {
			old[k] = float64(v)
		}
		rf, ro := rankOf(sc, s.best), rankOf(old, s.best)
		for j, k := range ks {
			if rf < k {
				hitFit[j]++
			}
			if ro < k {
				hitOld[j]++
			}
		}
	}
	for j, k := range ks {
		t.Logf("top %2d: fitted %.1f%%, present order %.1f%% (%d held-out positions)", k,
			100*float64(hitFit[j])/float64(n), 100*float64(hitOld[j])/float64(n), n)
	}
	// The reduced moves and the threes: chosen how often, by quarter of
	// their fitted score.
	type cand struct {
		score  float64
		chosen bool
	}
	for class, name := range []string{1: "reduced moves", 2: "threes"} {
		if name == "" {
			continue
		}
		var cands []cand
		for i := range samples {
			s := &samples[i]
			sc = score(s, sc)
			for k, c := range s.class {
				if c == class {
					cands = append(cands, cand{sc[k], k == s.best})
				}
			}
		}
		slices.SortFunc(cands, func(a, b cand) int { return cmpFloat(a.score, b.score) })
		for q := range 4 {
			part := cands[q*len(cands)/4 : (q+1)*len(cands)/4]
			c := 0
			for _, x := range part {
				if x.chosen {
					c++
				}
			}
			t.Logf("%s, quarter %d: score %.0f to %.0f, %d of %d chosen", name, q+1,
				100*part[0].score, 100*part[len(part)-1].score, c, len(part))
		}
	}
	var sb strings.Builder
	for j := range w {
		fmt.Fprintf(&sb, "%d, ", int(math.Round(100*w[j])))
		if j%8 == 7 {
			sb.WriteString("\n")
		}
	}
	t.Logf("weights (x100), in moveFeatures' order:\n%s", sb.String())
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestMoveScoreThrees reads the shipped table's scores of the open threes
// the selective search may reduce (class 2 of readMoveLabels) in the
// labelled positions, by eighth, with how often the search chose them,
// and how many score below weakThree; and the same eighths for the
// reduced (quiet) moves, for comparison:
//
//	GOMOKU_MOVEFIT=moves.txt go test -run TestMoveScoreThrees -v ./engine/gomoku
func TestMoveScoreThrees(t *testing.T) {
	files := os.Getenv("GOMOKU_MOVEFIT")
	if files == "" {
		t.Skip("set GOMOKU_MOVEFIT to move label files to read the threes' scores")
	}
	samples := readMoveLabels(t, files)
	type cand struct {
		score  int32
		chosen bool
	}
	for class, name := range []string{1: "reduced moves", 2: "threes"} {
		if name == "" {
			continue
		}
		var cands []cand
		below, chosenBelow, chosen := 0, 0, 0
		for i := range samples {
			s := &samples[i]
			for k, c := range s.class {
				if c != class {
					continue
				}
				var v int32
				for _, j := range s.feats[k] {
					v += moveScoreTable[j]
				}
				cands = append(cands, cand{v, k == s.best})
				if k == s.best {
					chosen++
				}
				if v < weakThree {
					below++
					if k == s.best {
						chosenBelow++
					}
				}
			}
		}
		slices.SortFunc(cands, func(a, b cand) int { return int(a.score - b.score) })
		for q := range 8 {
			part := cands[q*len(cands)/8 : (q+1)*len(cands)/8]
			c := 0
			for _, x := range part {
				if x.chosen {
					c++
				}
			}
			t.Logf("%s, eighth %d: score %d to %d, %d of %d chosen", name, q+1, part[0].score, part[len(part)-1].score, c, len(part))
		}
		if class == 2 {
			t.Logf("threes below weakThree (%d): %d of %d, %d of the %d chosen", weakThree, below, len(cands), chosenBelow, chosen)
		}
	}
}
