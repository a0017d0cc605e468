package gomoku

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Fitting the evaluation to a deeper search, in two steps, both skipped in
// the normal suite.
//
// Labelling: positions sampled from logged games are searched by the full
// engine with a fixed node budget (so the labels are the same on any
// machine), and each is written with the search's score:
//
//	GOMOKU_LABEL=<match logs or games file>[,...] GOMOKU_LABEL_OUT=labels.txt \
//	  [GOMOKU_LABEL_NODES=100000] [GOMOKU_LABEL_PER_GAME=3] [GOMOKU_LABEL_SEED=1] \
//	  [GOMOKU_LABEL_DETOUR=0] go test -run TestLabelEval -v -timeout 0 ./engine/gomoku
//
// The logs are the -v output of the match tests (one line per game with
// its outcome and full record; testdata/fitgames.txt.gz holds the games
// of the earlier sessions' logs in that form); every distinct game is
// used, in sorted order, and from each GOMOKU_LABEL_PER_GAME positions
// after the sixth stone are drawn with a seeded generator, each followed
// by up to GOMOKU_LABEL_DETOUR moves of its own (samplePosition). A line
// of labels.txt is the position's record, the search's score (side to
// move's view), the game's result for the side to move (1, 0 or 0.5) and
// a hash of the game's record (the fit holds out whole games by it).
//
// Fitting: the evaluation's values per combination and role and its
// threat terms (evaltable.go) are fitted by logistic regression of the
// label's win probability sigmoid(score/K) on the evaluation's terms,
// from the hand-set values and regularised towards them (the model:
// fitWeights and the parameters before it):
//
//	GOMOKU_FIT=labels.txt[,...] [GOMOKU_FIT_L2=1e-8,1e-7,1e-6] [GOMOKU_FIT_L2_PARTS=1e-10] \
//	  [GOMOKU_FIT_L2_SIT=-1] [GOMOKU_FIT_FROM=embedded] [GOMOKU_FIT_ITERS=2000] \
//	  [GOMOKU_FIT_OUT=engine/gomoku/evaltable.txt] [GOMOKU_FIT_K=1204] \
//	  [GOMOKU_FIT_TABLES=<tables>] [GOMOKU_FIT_HELD=all] go test -run TestFitEval -v ./engine/gomoku
//
// The situation values (eval.go: one per pair of the two sides'
// situations) are fitted only when GOMOKU_FIT_L2_SIT, their
// regularisation towards 0, is not negative; with GOMOKU_FIT_FROM=embedded
// they are fitted alone, on top of the embedded table.
//
// K is the scale at which the labels' scores predict the games' results
// best (P(win) = sigmoid(score/K)), so the fitted values are in the units
// of the search's scores, which are those of the hand-set evaluation:
// WinThreshold, the futility margins and the quiescence keep their
// meaning. Every fifth game (by a hash of its record) is held out; the
// fit reports the held-out loss of the hand-set values, of the embedded
// table, of each table named in GOMOKU_FIT_TABLES (evaltable.txt's
// format) and of each regularisation, and writes the table of the best
// one. GOMOKU_FIT_K sets K instead of fitting it: the scale fitted to
// labels with detours, or from games against a much stronger program,
// is far too soft (issue 15's sixteenth session: 13,808 on labels with
// detours of two moves, 3,043 on those labels' positions of the games'
// own lines, mostly games lost to Rapfi, against 1,264 on the earlier
// labels), and the fit then chases the proofs' clamped scores.
//
// Result labels (GOMOKU_FIT_RESULTS, TestLabelResults in
// resultfit_test.go) aim at the game's result instead of
// sigmoid(score/K), each weighing GOMOKU_FIT_RESULT_WEIGHT search labels
// (default 1); with them the fits are chosen by the held-out log loss
// on the result labels, which is also logged by the colour to move and
// the stones on the board. GOMOKU_FIT_FROM=table starts every value from
// the embedded table and regularises it towards that table.
// GOMOKU_FIT_HELD=all holds every game out: the tables are measured on
// the labels, nothing is fitted.

// handSetWeights are the evaluation's hand-set values, which the fit
// starts from: a point's value is the sum of its four lines' patternValue
// plus the threatBonus of its class (the move order's values), the same
// for both roles.
func handSetWeights() *evalWeights {
	w := &evalWeights{
		moverFourThree: 4000, moverThree2: 2000,
		oppOpenThree: 200, oppFourThree: 800, oppThree2: 400,
		tempo: 500,
	}
	for c, pats := range comboPatterns {
		var v int32
		var n [numPatterns]uint8
		for _, p := range pats {
			v += patternValue[p]
			n[p]++
		}
		v += threatBonus[classifyThreat(&n)]
		w.combo[roleToMove][c], w.combo[roleMoved][c] = v, v
	}
	return w
}

// formatEvalTable writes w in evaltable.txt's format, after the header
// lines (each written as a comment).
func formatEvalTable(w *evalWeights, header []string) string {
	var sb strings.Builder
	for _, h := range header {
		fmt.Fprintf(&sb, "# %s\n", h)
	}
	for i, p := range w.terms() {
		fmt.Fprintf(&sb, "term %s %d\n", evalTermNames[i], *p)
	}
	for c := range numCombos {
		fmt.Fprintf(&sb, "combo %s %d %d\n", comboName(c), w.combo[roleToMove][c], w.combo[roleMoved][c])
	}
	for m := range numSituations {
		for o := range numSituations {
			if v := w.situation[m][o]; v != 0 {
				fmt.Fprintf(&sb, "situation %d %d %d\n", m, o, v)
			}
		}
	}
	return sb.String()
}

// numFitFeatures: the combinations for each role, the threat terms, then
// the situation pairs.
const (
	fitSituationFeatures = 2*numCombos + 6
	numFitFeatures       = fitSituationFeatures + numSituations*numSituations
)

// fitVector flattens w in feature order.
func fitVector(w *evalWeights) []float64 {
	v := make([]float64, 0, numFitFeatures)
	for r := range 2 {
		for c := range numCombos {
			v = append(v, float64(w.combo[r][c]))
		}
	}
	for _, p := range w.terms() {
		v = append(v, float64(*p))
	}
	for m := range numSituations {
		for o := range numSituations {
			v = append(v, float64(w.situation[m][o]))
		}
	}
	return v
}

// weightsOf rounds a feature-ordered vector back into weights.
func weightsOf(v []float64) *evalWeights {
	w := &evalWeights{}
	for r := range 2 {
		for c := range numCombos {
			w.combo[r][c] = int32(math.Round(v[r*numCombos+c]))
		}
	}
	for i, p := range w.terms() {
		*p = int(math.Round(v[2*numCombos+i]))
	}
	for m := range numSituations {
		for o := range numSituations {
			w.situation[m][o] = int32(math.Round(v[fitSituationFeatures+m*numSituations+o]))
		}
	}
	return w
}

// feature is one non-zero term of a position: eval is the sum of
// weight[index] * count.
type feature struct {
	index int32
	count float32
}

// fitFeatures returns the terms eval sums for b, sparse: per empty point
// the side to move's combination counts +1 (role to move), the other
// side's -1 (role moved); the threat terms are +1 or -1 when eval adds or
// subtracts them.
func fitFeatures(b *Board) []feature {
	me := b.ToMove()
	opp := me.Other()
	counts := map[int32]float32{}
	const n = int(numPatterns)
	for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
		if b.cells[i] != cellEmpty {
			continue
		}
		for side, c := range [2]Color{me, opp} {
			p := &b.pats[c]
			k := int(p[0][i]&patternMask)*n*n*n + int(p[1][i]&patternMask)*n*n +
				int(p[2][i]&patternMask)*n + int(p[3][i]&patternMask)
			counts[int32(side*numCombos)+int32(comboOf[k])] += float32(1 - 2*side)
		}
	}
	term := func(i int, v float32) { counts[int32(2*numCombos+i)] = v }
	cm, co := &b.classCount[me], &b.classCount[opp]
	if co[tFour]+co[tFourThree]+co[tFlex4] == 0 {
		switch {
		case cm[tFourThree] > 0:
			term(0, 1)
		case cm[tThree2] > 0 && !(b.rule == Renju && me == Black):
			term(1, 1)
		}
	}
	if co[tFlex4] > 0 {
		term(2, -1)
	}
	if cm[tFour]+cm[tFourThree]+cm[tFlex4] == 0 {
		if co[tFourThree] > 0 {
			term(3, -1)
		}
		if co[tThree2] > 0 && !(b.rule == Renju && opp == Black) {
			term(4, -1)
		}
	}
	term(5, 1)
	sm := situationOf(cm, b.rule == Renju && me == Black)
	so := situationOf(co, b.rule == Renju && opp == Black)
	counts[int32(fitSituationFeatures+sm*numSituations+so)] = 1
	out := make([]feature, 0, len(counts))
	for i, v := range counts {
		if v != 0 {
			out = append(out, feature{i, v})
		}
	}
	slices.SortFunc(out, func(a, b feature) int { return int(a.index - b.index) })
	return out
}

// dot is the evaluation of a position's features under weights v.
func dot(f []feature, v []float64) float64 {
	s := 0.0
	for _, x := range f {
		s += float64(x.count) * v[x.index]
	}
	return s
}

var gameLine = regexp.MustCompile(`as (black|white): (win|loss|draw) ([a-t0-9]+)\s*$`)

// loggedGame is a game of a match log: its record and Black's result.
type loggedGame struct {
	record string
	black  float64 // 1: Black won, 0: White won, 0.5: draw
}

// readLoggedGames returns the distinct games of match logs (gzipped if
// the name ends in .gz), sorted by record.
func readLoggedGames(t *testing.T, files string) []loggedGame {
	seen := map[string]float64{}
	for _, name := range strings.Split(files, ",") {
		fh, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = fh
		if strings.HasSuffix(name, ".gz") {
			if r, err = gzip.NewReader(fh); err != nil {
				t.Fatal(err)
			}
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			m := gameLine.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			// The outcome is that of the program named, which played the colour named.
			res := 0.5
			if m[2] != "draw" {
				res = 0
				if (m[1] == "black") == (m[2] == "win") {
					res = 1
				}
			}
			seen[m[3]] = res
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		fh.Close()
	}
	games := make([]loggedGame, 0, len(seen))
	for r, res := range seen {
		games = append(games, loggedGame{r, res})
	}
	slices.SortFunc(games, func(a, b loggedGame) int { return strings.Compare(a.record, b.record) })
	return games
}

// labelable reports whether a position is one the evaluation is asked
// about: neither side has a five to play (those are tactics).
func labelable(b *Board) bool {
	return !b.Over() && b.classCount[Black][tFive] == 0 && b.classCount[White][tFive] == 0
}

func TestLabelEval(t *testing.T) {
	files, out := labelFiles(t, "GOMOKU_LABEL", "positions")
	searchSampled(t, files, 100000, 3, 0, func(b *Board, r Result, game loggedGame, gameHash uint32) {
		res := game.black
		if b.ToMove() == White {
			res = 1 - res
		}
		fmt.Fprintf(out, "%s %d %g %08x\n", FormatRecord(b.Moves()), r.Score, res, gameHash)
	})
}

// labelFiles reads a labelling test's settings: the match logs named by
// the environment variable env (the test is skipped without them) and the
// output file named by env+"_OUT", created here and closed when the test
// ends. what names what is labelled, for the skip message.
func labelFiles(t *testing.T, env, what string) (string, *os.File) {
	files := os.Getenv(env)
	if files == "" {
		t.Skipf("set %s to match logs and %s_OUT to a file to label %s", env, env, what)
	}
	out, err := os.Create(os.Getenv(env + "_OUT"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	return files, out
}

// searchSampled samples positions from the logged games in files
// (samplePosition: GOMOKU_LABEL_PER_GAME a game, GOMOKU_LABEL_DETOUR moves
// off it, seeded by GOMOKU_LABEL_SEED; the defaults are perGame and
// detour), searches each one not seen before with the full engine and a
// budget of GOMOKU_LABEL_NODES nodes (default nodes), and hands write the
// position, the search's result, the game and a hash of its record.
func searchSampled(t *testing.T, files string, nodes uint64, perGame, detour int, write func(b *Board, r Result, game loggedGame, gameHash uint32)) {
	nodes = envUint(t, "GOMOKU_LABEL_NODES", nodes)
	perGame = int(envUint(t, "GOMOKU_LABEL_PER_GAME", uint64(perGame)))
	detour = int(envUint(t, "GOMOKU_LABEL_DETOUR", uint64(detour)))
	rng := rand.New(rand.NewSource(int64(envUint(t, "GOMOKU_LABEL_SEED", 1))))
	games := readLoggedGames(t, files)
	seen := map[uint64]bool{}
	start := time.Now()
	n := 0
	for g, game := range games {
		moves, err := ParseRecord(game.record, 15)
		if err != nil || len(moves) < 8 {
			continue
		}
		for range perGame {
			b := samplePosition(moves, rng, detour)
			if b == nil || !labelable(b) || seen[b.Hash()] {
				continue
			}
			seen[b.Hash()] = true
			r, err := NewEngine().Search(context.Background(), b, Limits{Nodes: nodes})
			if err != nil {
				t.Fatal(err)
			}
			h := fnv.New32a()
			h.Write([]byte(game.record))
			write(b, r, game, h.Sum32())
			n++
		}
		if g%100 == 99 {
			t.Logf("%d of %d games, %d positions, %v", g+1, len(games), n, time.Since(start).Round(time.Second))
		}
	}
	t.Logf("%d games, %d positions labelled with %d nodes each in %v", len(games), n, nodes, time.Since(start).Round(time.Second))
}

// samplePosition plays a game up to a random point after the sixth stone
// and then up to detour moves of its own, each drawn from the eight best
// points by the move order's value (attack plus defence): the positions
// the search's leaves see are a few plausible moves away from a game's.
// It returns nil if the record stops being legal.
func samplePosition(moves []Point, rng *rand.Rand, detour int) *Board {
	b, _ := NewBoard(15, Freestyle)
	for _, p := range moves[:6+rng.Intn(len(moves)-6)] {
		if b.Play(p) != nil {
			return nil
		}
	}
	// Without detours nothing more is drawn, so that such a run samples
	// the positions the first labelling (which had no detours) did.
	n := 0
	if detour > 0 {
		n = rng.Intn(detour + 1)
	}
	playDetours(rng, b, n)
	return b
}

// playDetours plays up to n moves on b, each drawn from the eight best
// points by the move order's value (attack plus defence), stopping early
// once a side could make a five.
func playDetours(rng *rand.Rand, b *Board, n int) {
	for range n {
		if !labelable(b) {
			return
		}
		var cand []scored
		for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
			if b.cells[i] == cellEmpty && b.near[i] > 0 {
				cand = append(cand, scored{move: i, score: b.valueAt(Black, i) + b.valueAt(White, i)})
			}
		}
		slices.SortFunc(cand, func(x, y scored) int { return int(y.score - x.score) })
		b.play(cand[rng.Intn(min(8, len(cand)))].move)
	}
}

// envUint reads a non-negative integer setting, def when unset.
func envUint(t *testing.T, name string, def uint64) uint64 {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// fitSample is a labelled position.
type fitSample struct {
	f      []feature
	score  float64 // the search's score, side to move's view
	result float64 // the game's result for the side to move
	held   bool    // held out: every fifth game, to measure the fit on games it did not see
	// fromResult: the target is the game's result, not the score
	// (GOMOKU_FIT_RESULTS, TestLabelResults' labels).
	fromResult bool
	black      bool // Black is to move
	stones     int
}

// target is the probability the fit aims at: the game's result for a
// result label, sigmoid(score/K) for a search label.
func (s *fitSample) target(K float64) float64 {
	if s.fromResult {
		return s.result
	}
	return sigmoid(clampScore(s.score) / K)
}

// readLabels reads label files (TestLabelEval's lines: the position's
// record, the search's score, the game's result for the side to move,
// the game's hash) and rebuilds each position's features; fromResult
// marks them as result labels.
func readLabels(t *testing.T, files string, fromResult bool) []fitSample {
	allHeld := os.Getenv("GOMOKU_FIT_HELD") == "all"
	var samples []fitSample
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
			score, err2 := strconv.ParseFloat(f[1], 64)
			res, err3 := strconv.ParseFloat(f[2], 64)
			game, err4 := strconv.ParseUint(f[3], 16, 32)
			if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
				t.Fatalf("%s: bad line %q", name, line)
			}
			b, _ := NewBoard(15, Freestyle)
			for _, p := range moves {
				if err := b.Play(p); err != nil {
					t.Fatalf("%s: %v in %q", name, err, line)
				}
			}
			held := game%5 == 0 || allHeld
			samples = append(samples, fitSample{fitFeatures(b), score, res, held, fromResult, b.ToMove() == Black, b.MoveCount()})
		}
	}
	return samples
}

// sigmoid is the logistic function.
func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// logLoss is the cross-entropy of a logit z against a target probability y.
func logLoss(z, y float64) float64 {
	// log(1+exp(-z)) for y=1, log(1+exp(z)) for y=0, stably.
	l1 := math.Log1p(math.Exp(-math.Abs(z))) + math.Max(-z, 0)
	l0 := math.Log1p(math.Exp(-math.Abs(z))) + math.Max(z, 0)
	return y*l1 + (1-y)*l0
}

// fitScale returns the K at which sigmoid(score/K) predicts the games'
// results best on the training samples.
func fitScale(samples []fitSample) float64 {
	return bestScale(20000, func(K float64) float64 {
		loss := 0.0
		for _, s := range samples {
			if !s.held && s.result != 0.5 && !s.fromResult {
				loss += logLoss(clampScore(s.score)/K, s.result)
			}
		}
		return loss
	})
}

// bestScale returns the K from 100 up to most, in steps of 5%, with the
// lowest loss(K).
func bestScale(most float64, loss func(K float64) float64) float64 {
	bestK, bestLoss := 0.0, math.Inf(1)
	for K := 100.0; K <= most; K *= 1.05 {
		if l := loss(K); l < bestLoss {
			bestK, bestLoss = K, l
		}
	}
	return bestK
}

// clampScore bounds proven and near-proven scores: beyond a few K they
// are certainties either way.
func clampScore(s float64) float64 { return max(-20000, min(20000, s)) }

// meanLoss is the mean log loss of the weights v against the search
// labels' probabilities, on the held-out samples (held) or the others.
func meanLoss(samples []fitSample, v []float64, K float64, held bool) float64 {
	return kindLoss(samples, v, K, held, false)
}

// kindLoss is meanLoss on the result labels (fromResult) or the search
// labels.
func kindLoss(samples []fitSample, v []float64, K float64, held, fromResult bool) float64 {
	loss, n := 0.0, 0
	for _, s := range samples {
		if s.held == held && s.fromResult == fromResult {
			loss += logLoss(dot(s.f, v)/K, s.target(K))
			n++
		}
	}
	return loss / float64(max(n, 1))
}

// The fitted model. A combination's value for a role is the sum of its
// four patterns' values and its threat class's bonus for that role (the
// shape of the hand-set values, with a value per role), plus its own
// residual: the residuals are regularised harder, so that a combination
// seen in few positions keeps about the sum of its parts while the
// common ones move to what the labels say. Parameter layout: the
// residuals (per role and combination), the pattern values (per role and
// pattern), the class bonuses (per role and class), the threat terms.
const (
	fitResiduals  = 0
	fitPatterns   = fitResiduals + 2*numCombos
	fitClasses    = fitPatterns + 2*int(numPatterns)
	fitTerms      = fitClasses + 2*int(numThreats)
	fitSituations = fitTerms + 6
	fitParams     = fitSituations + numSituations*numSituations
)

// comboClass is each combination's threat class.
var comboClass = func() (out [numCombos]threat) {
	for c, pats := range comboPatterns {
		var n [numPatterns]uint8
		for _, p := range pats {
			n[p]++
		}
		out[c] = classifyThreat(&n)
	}
	return out
}()

// priorParams are the hand-set values as model parameters: no residuals.
func priorParams() []float64 {
	p := make([]float64, fitParams)
	h := handSetWeights()
	for r := range 2 {
		for q := range int(numPatterns) {
			p[fitPatterns+r*int(numPatterns)+q] = float64(patternValue[q])
		}
		for t := range int(numThreats) {
			p[fitClasses+r*int(numThreats)+t] = float64(threatBonus[t])
		}
	}
	for i, v := range h.terms() {
		p[fitTerms+i] = float64(*v)
	}
	return p
}

// paramsOf is w as model parameters on the hand-set patterns' and
// classes' values: each combination's residual is what w adds to them.
func paramsOf(w *evalWeights) []float64 {
	p := priorParams()
	h := handSetWeights()
	for r := range 2 {
		for c := range numCombos {
			p[fitResiduals+r*numCombos+c] = float64(w.combo[r][c] - h.combo[r][c])
		}
	}
	for i, v := range w.terms() {
		p[fitTerms+i] = float64(*v)
	}
	for m := range numSituations {
		for o := range numSituations {
			p[fitSituations+m*numSituations+o] = float64(w.situation[m][o])
		}
	}
	return p
}

// expand turns model parameters into the evaluation's weights, in
// feature order (fitVector's).
func expand(p []float64) []float64 {
	v := make([]float64, numFitFeatures)
	for r := range 2 {
		for c, pats := range comboPatterns {
			x := p[fitResiduals+r*numCombos+c] + p[fitClasses+r*int(numThreats)+int(comboClass[c])]
			for _, q := range pats {
				x += p[fitPatterns+r*int(numPatterns)+int(q)]
			}
			v[r*numCombos+c] = x
		}
	}
	copy(v[2*numCombos:], p[fitTerms:])
	return v
}

// fold turns a gradient over the weights (feature order) into one over
// the model parameters.
func fold(g []float64) []float64 {
	out := make([]float64, fitParams)
	for r := range 2 {
		for c, pats := range comboPatterns {
			x := g[r*numCombos+c]
			out[fitResiduals+r*numCombos+c] += x
			out[fitClasses+r*int(numThreats)+int(comboClass[c])] += x
			for _, q := range pats {
				out[fitPatterns+r*int(numPatterns)+int(q)] += x
			}
		}
	}
	copy(out[fitTerms:], g[2*numCombos:])
	return out
}

// fitWeights minimises the mean log loss on the training samples plus an
// L2 penalty on the change from the prior parameters (l2 on the
// residuals, l2Sit on the situation values, which a negative l2Sit
// keeps at their prior, l2Parts on the rest; with onlySit, nothing but
// the situation values moves) with Adam: the features' scales differ
// by two orders of magnitude (the empty points that make nothing are
// counted by the hundred, a four-three once), and Adam's per-parameter
// steps, in evaluation units, need no tuning for that. A result label
// counts rw times a search label. It returns the weights in feature
// order.
//
// frozen, when not nil, marks parameters that stay at their prior
// whatever the other settings (quietParams).
func fitWeights(samples []fitSample, prior []float64, K, l2, l2Parts, l2Sit float64, onlySit bool, iters int, rw float64, frozen []bool) []float64 {
	const (
		rate         = 2.0 // evaluation units per step, at most
		beta1, beta2 = 0.9, 0.999
	)
	p := append([]float64(nil), prior...)
	m1 := make([]float64, len(p))
	m2 := make([]float64, len(p))
	grad := make([]float64, numFitFeatures)
	n := 0.0
	for _, s := range samples {
		if !s.held {
			n += sampleWeight(&s, rw)
		}
	}
	for it := 1; it <= iters; it++ {
		v := expand(p)
		clear(grad)
		for _, s := range samples {
			if s.held {
				continue
			}
			d := sampleWeight(&s, rw) * (sigmoid(dot(s.f, v)/K) - s.target(K)) / K
			for _, x := range s.f {
				grad[x.index] += d * float64(x.count)
			}
		}
		gp := fold(grad)
		c1 := 1 - math.Pow(beta1, float64(it))
		c2 := 1 - math.Pow(beta2, float64(it))
		for j := range p {
			if frozen != nil && frozen[j] {
				continue
			}
			reg := l2Parts
			switch {
			case j >= fitSituations:
				if l2Sit < 0 {
					continue // the situation values stay at their prior
				}
				reg = l2Sit
			case onlySit:
				continue // the table stays, only the situation values move
			case j < fitPatterns:
				reg = l2
			}
			g := gp[j]/n + 2*reg*(p[j]-prior[j])
			m1[j] = beta1*m1[j] + (1-beta1)*g
			m2[j] = beta2*m2[j] + (1-beta2)*g*g
			p[j] -= rate * (m1[j] / c1) / (math.Sqrt(m2[j]/c2) + 1e-12)
		}
	}
	return expand(p)
}

// quietParams marks the parameters a quiet refit keeps (issue 15's
// nineteenth session): everything but the residuals of the combinations
// whose class is at most class (both roles), the situation values of
// pairs where both sides' situations are at most sit (sitFourAndThree:
// every pair a quiet position can have), and with tempo the tempo term.
// The pattern values and class bonuses are shared with the tactical
// combinations, so they stay too.
func quietParams(class threat, sit int, tempo bool) []bool {
	frozen := make([]bool, fitParams)
	for j := range frozen {
		switch {
		case j < fitPatterns:
			frozen[j] = comboClass[j%numCombos] > class
		case j >= fitSituations:
			m, o := (j-fitSituations)/numSituations, (j-fitSituations)%numSituations
			frozen[j] = m > sit || o > sit
		case j == fitTerms+5:
			frozen[j] = !tempo
		default:
			frozen[j] = true
		}
	}
	return frozen
}

// sampleWeight is a label's weight in the fit: rw for a result label.
func sampleWeight(s *fitSample, rw float64) float64 {
	if s.fromResult {
		return rw
	}
	return 1
}

func TestFitEval(t *testing.T) {
	files, rfiles := os.Getenv("GOMOKU_FIT"), os.Getenv("GOMOKU_FIT_RESULTS")
	if files == "" && rfiles == "" {
		t.Skip("set GOMOKU_FIT to label files (TestLabelEval), or GOMOKU_FIT_RESULTS to result labels (TestLabelResults), to fit the evaluation on")
	}
	var samples []fitSample
	if files != "" {
		samples = readLabels(t, files, false)
	}
	nSearch := len(samples)
	if rfiles != "" {
		samples = append(samples, readLabels(t, rfiles, true)...)
	}
	results := len(samples) > nSearch
	held := 0
	for _, s := range samples {
		if s.held {
			held++
		}
	}
	t.Logf("%d positions (%d search labels, %d result labels), %d of them held out", len(samples), nSearch, len(samples)-nSearch, held)
	K := fitScale(samples)
	givenK := ""
	if k := envFloats(t, "GOMOKU_FIT_K", nil); k != nil {
		// A scale given, not fitted: labels whose games' results the
		// scores predict poorly (positions off the game's line, games
		// against a stronger program) would soften the fit's targets.
		t.Logf("K fitted to these labels: %.0f; using %g", K, k[0])
		K = k[0]
		givenK = fmt.Sprintf(" GOMOKU_FIT_K=%g", K)
	}
	prior := priorParams()
	onlySit := os.Getenv("GOMOKU_FIT_FROM") == "embedded"
	if onlySit || os.Getenv("GOMOKU_FIT_FROM") == "table" {
		// Fit the situation values on top of the embedded table, or
		// (table) everything, from the embedded table and regularised
		// towards it.
		prior = paramsOf(evalW)
	}
	rw := envFloats(t, "GOMOKU_FIT_RESULT_WEIGHT", []float64{1})[0]
	// The measure a fit is chosen by: the held-out log loss on the
	// search labels, or with result labels on those.
	chosen := func(v []float64) float64 { return kindLoss(samples, v, K, true, results) }
	hand := fitVector(handSetWeights())
	handLoss := chosen(hand)
	t.Logf("K = %.0f; hand-set values: log loss %.4f on the training positions, %.4f held out (the labels' own entropy %.4f)",
		K, meanLoss(samples, hand, K, false), handLoss, labelEntropy(samples, K))
	// measure logs a table's log loss on these labels, overall and by |score|.
	measure := func(name string, w *evalWeights) {
		v := fitVector(w)
		t.Logf("%s: log loss %.4f on the training positions, %.4f held out",
			name, meanLoss(samples, v, K, false), meanLoss(samples, v, K, true))
		logBuckets(t, samples, K, name, v)
		logResults(t, samples, K, name, v)
	}
	measure("embedded", evalW)
	if tables := os.Getenv("GOMOKU_FIT_TABLES"); tables != "" {
		// Other tables (evaltable.txt's format) measured on the same labels.
		for _, name := range strings.Split(tables, ",") {
			text, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			w, err := parseEvalTable(string(text))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			measure(name, w)
		}
	}
	if held == len(samples) {
		t.Log("GOMOKU_FIT_HELD=all: every position held out, the tables measured, nothing fitted")
		return
	}
	l2s := envFloats(t, "GOMOKU_FIT_L2", []float64{1e-8, 1e-7, 1e-6})
	l2Parts := envFloats(t, "GOMOKU_FIT_L2_PARTS", []float64{1e-10})[0]
	l2Sit := envFloats(t, "GOMOKU_FIT_L2_SIT", []float64{-1})[0]
	iters := int(envUint(t, "GOMOKU_FIT_ITERS", 2000))
	var frozen []bool
	quietSettings := ""
	if q := os.Getenv("GOMOKU_FIT_QUIET"); q != "" {
		// Only the quiet values move: the tactical ones, which decide
		// the search's depth and proofs, stay the prior's.
		if os.Getenv("GOMOKU_FIT_FROM") != "table" {
			t.Fatal("GOMOKU_FIT_QUIET keeps the embedded table's tactical values: set GOMOKU_FIT_FROM=table")
		}
		class, err := strconv.Atoi(q)
		if err != nil || class < 0 || class >= int(numThreats) {
			t.Fatalf("GOMOKU_FIT_QUIET=%q: want a threat class, 0-%d", q, numThreats-1)
		}
		sit := int(envUint(t, "GOMOKU_FIT_QUIET_SIT", sitFourAndThree))
		frozen = quietParams(threat(class), sit, os.Getenv("GOMOKU_FIT_QUIET_TEMPO") != "")
		quietSettings = fmt.Sprintf(" GOMOKU_FIT_QUIET=%s GOMOKU_FIT_QUIET_SIT=%d GOMOKU_FIT_QUIET_TEMPO=%s", q, sit, os.Getenv("GOMOKU_FIT_QUIET_TEMPO"))
		moving := 0
		for _, f := range frozen {
			if !f {
				moving++
			}
		}
		t.Logf("GOMOKU_FIT_QUIET: %d of %d parameters move", moving, len(frozen))
	}
	var best []float64
	bestLoss, bestL2 := handLoss, 0.0
	for _, l2 := range l2s {
		v := fitWeights(samples, prior, K, l2, l2Parts, l2Sit, onlySit, iters, rw, frozen)
		h := chosen(v)
		t.Logf("l2 %g: log loss %.4f on the training positions, %.4f held out", l2, meanLoss(samples, v, K, false), meanLoss(samples, v, K, true))
		logBuckets(t, samples, K, "fitted", v)
		logResults(t, samples, K, "fitted", v)
		if h < bestLoss {
			best, bestLoss, bestL2 = v, h, l2
		}
	}
	if best == nil {
		t.Log("no fit beats the hand-set values on the held-out positions")
		return
	}
	w := weightsOf(best)
	for i, p := range w.terms() {
		t.Logf("%-15s hand-set %6.0f  fitted %6d", evalTermNames[i], hand[2*numCombos+i], *p)
	}
	if out := os.Getenv("GOMOKU_FIT_OUT"); out != "" {
		header := []string{
			"The evaluation's values (evaltable.go): per threat term, and per combination",
			"of a point's four line patterns its value for the side to move and for the",
			"side that has just moved; per pair of the two sides' situations (side to",
			"move's, other side's) a value added to the score, a pair left out is 0.",
			"Written by TestFitEval (fit_test.go):",
			fmt.Sprintf("GOMOKU_FIT=<labels> GOMOKU_FIT_L2=%g GOMOKU_FIT_L2_PARTS=%g GOMOKU_FIT_L2_SIT=%g GOMOKU_FIT_ITERS=%d%s%s%s", bestL2, l2Parts, l2Sit, iters, givenK, resultSettings(results, rw), quietSettings),
			fmt.Sprintf("%d labelled positions (%d held out), K %.0f, held-out log loss %.4f (hand-set %.4f)%s.",
				len(samples), held, K, bestLoss, handLoss, map[bool]string{true: " on the result labels"}[results]),
		}
		if err := os.WriteFile(out, []byte(formatEvalTable(w, header)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// logBuckets logs the held-out log loss of the weights v by the size of
// the label's score: quiet positions, tactical ones, proofs.
func logBuckets(t *testing.T, samples []fitSample, K float64, name string, v []float64) {
	bounds := []float64{500, 2000, WinThreshold, math.Inf(1)}
	loss := make([]float64, len(bounds))
	n := make([]int, len(bounds))
	for _, s := range samples {
		if !s.held || s.fromResult {
			continue
		}
		i := 0
		for math.Abs(s.score) >= bounds[i] {
			i++
		}
		loss[i] += logLoss(dot(s.f, v)/K, sigmoid(clampScore(s.score)/K))
		n[i]++
	}
	line := name + ", held-out log loss by |score| (<500, <2000, <proof, proof):"
	for i := range bounds {
		line += fmt.Sprintf(" %.3f (%d)", loss[i]/float64(max(n[i], 1)), n[i])
	}
	t.Log(line)
}

// resultSettings names the result labels' settings in a written
// table's header.
func resultSettings(results bool, rw float64) string {
	if !results {
		return ""
	}
	return fmt.Sprintf(" GOMOKU_FIT_RESULTS=<result labels> GOMOKU_FIT_RESULT_WEIGHT=%g GOMOKU_FIT_FROM=%s", rw, os.Getenv("GOMOKU_FIT_FROM"))
}

// logResults logs, on the held-out result labels, the log loss of the
// weights v against the games' results and the mean predicted against
// the mean result, by the colour to move and by the stones on the board;
// and the scale at which v predicts the results best.
func logResults(t *testing.T, samples []fitSample, K float64, name string, v []float64) {
	type acc struct{ loss, pred, res, n float64 }
	var by [2][3]acc // colour to move (black, white), stones <20, <30, more
	var all acc
	for _, s := range samples {
		if !s.held || !s.fromResult {
			continue
		}
		z := dot(s.f, v) / K
		c := 1
		if s.black {
			c = 0
		}
		st := min(max(s.stones-10, 0)/10, 2)
		for _, a := range []*acc{&by[c][st], &all} {
			a.loss += logLoss(z, s.result)
			a.pred += sigmoid(z)
			a.res += s.result
			a.n++
		}
	}
	if all.n == 0 {
		return
	}
	bestK := bestScale(50000, func(k float64) float64 {
		loss := 0.0
		for _, s := range samples {
			if !s.held && s.fromResult {
				loss += logLoss(dot(s.f, v)/k, s.result)
			}
		}
		return loss
	})
	line := fmt.Sprintf("%s, held-out result labels: log loss %.4f (%.0f), predicted %.3f, result %.3f; best K on the training ones %.0f; by colour to move and stones (<20, <30, more) loss/predicted/result:",
		name, all.loss/all.n, all.n, all.pred/all.n, all.res/all.n, bestK)
	for c, col := range []string{"black", "white"} {
		line += " " + col
		for _, a := range by[c] {
			n := max(a.n, 1)
			line += fmt.Sprintf(" %.3f/%.3f/%.3f(%.0f)", a.loss/n, a.pred/n, a.res/n, a.n)
		}
	}
	t.Log(line)
}

// labelEntropy is the mean entropy of the held-out labels' probabilities:
// the log loss of a perfect fit.
func labelEntropy(samples []fitSample, K float64) float64 {
	sum, n := 0.0, 0
	for _, s := range samples {
		if s.held && !s.fromResult {
			y := sigmoid(clampScore(s.score) / K)
			sum += logLoss(clampScore(s.score)/K, y)
			n++
		}
	}
	return sum / float64(max(n, 1))
}

// envFloats reads a comma-separated list of numbers, def when unset.
func envFloats(t *testing.T, name string, def []float64) []float64 {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	var out []float64
	for _, s := range strings.Split(v, ",") {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, x)
	}
	return out
}

// TestEvalTableHandSet writes the hand-set table (GOMOKU_EVALTABLE_HANDSET=<file>),
// the values every fit starts from.
func TestEvalTableHandSet(t *testing.T) {
	out := os.Getenv("GOMOKU_EVALTABLE_HANDSET")
	if out == "" {
		t.Skip("set GOMOKU_EVALTABLE_HANDSET to a file to write the hand-set table to")
	}
	text := formatEvalTable(handSetWeights(), []string{"The hand-set values (handSetWeights in fit_test.go)."})
	if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFitFeatures checks that the fit's features are the evaluation's
// terms: under the embedded table's values they sum to eval, on positions
// of seeded random games.
func TestFitFeatures(t *testing.T) {
	e := NewEngine()
	v := fitVector(evalW)
	for seed := int64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewSource(seed))
		b, _ := NewBoard(15, Freestyle)
		for !b.Over() && b.MoveCount() < 60 {
			if got, want := dot(fitFeatures(b), v), e.eval(b); int(got) != want {
				t.Fatalf("seed %d, %d stones: features sum to %v, eval is %d\n%v", seed, b.MoveCount(), got, want, b)
			}
			var moves []int
			for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
				if b.cells[i] == cellEmpty && (b.near[i] > 0 || b.stones == 0) {
					moves = append(moves, i)
				}
			}
			b.play(moves[rng.Intn(len(moves))])
		}
	}
}

// TestFitParamsOf checks that the embedded table, as model parameters,
// expands back to its own values.
func TestFitParamsOf(t *testing.T) {
	w := *evalW
	w.situation[sitFourThree][sitThree] = 123 // a situation value is carried too
	if got := weightsOf(expand(paramsOf(&w))); *got != w {
		t.Fatal("the table's parameters expand to other values")
	}
}
