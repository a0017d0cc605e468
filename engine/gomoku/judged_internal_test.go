package gomoku

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestAnalyseJudged reads the lines internal/match's TestJudgeLosses wrote
// about the lost games of a match log (GOMOKU_JUDGED=<match log>:<judge
// log>[:<log of the positions before our moves>], several comma-separated)
// and finds, in each game, the move
// of ours after which the judge's score first fell to judgedLost and
// stayed below judgedLevel to the end (or was a mate against us). It logs
// that move with what it was (judgedKind), the judge's scores before and
// after, our own engine's, and whether our threat search proves the
// opponent's win after it: the big search of BenchmarkSafeChoice
// (opponentWinsByThreats) and level 6's proof-number VCT
// (opponentWinsByPN). A last line counts the games by phase and kind;
// with the before logs, one line per kind of move tallies our moves
// against the judge's choices (tallyKinds). GOMOKU_JUDGED_LONG=<nodes>
// verifies the losing moves the judge scores as mates with a long search
// of ours (verifyCritical).
func TestAnalyseJudged(t *testing.T) {
	spec := os.Getenv("GOMOKU_JUDGED")
	if spec == "" {
		t.Skip("set GOMOKU_JUDGED=<match log>:<judge log>[:<before log>],... to locate the losing moves")
	}
	counts := map[string]int{}
	kinds := map[string]*kindTally{}
	for _, triple := range strings.Split(spec, ",") {
		files := strings.Split(triple, ":")
		if len(files) < 2 {
			t.Fatalf("GOMOKU_JUDGED: %q is not <match log>:<judge log>[:<before log>]", triple)
		}
		records := lostRecords(t, files[0])
		var before map[string]map[int]judgedPos
		if len(files) > 2 {
			before = judgedBefore(t, files[2])
		}
		for _, g := range judgedGames(t, files[1]) {
			rec, ok := records[g.key]
			if !ok {
				t.Fatalf("%s: no lost game %s", files[0], g.key)
			}
			if before != nil {
				tallyKinds(t, g, before[g.key], rec, kinds)
			}
			k := g.critical()
			if k < 0 {
				t.Logf("%s: never judged lost", g.key)
				counts["never lost"]++
				continue
			}
			analyseCritical(t, g, k, rec, counts)
		}
	}
	t.Logf("summary: %v", counts)
	for k, v := range kinds {
		t.Logf("kind %s: %d of our moves (the judge's choice %d times), mean loss %.0f; the judge's move was of this kind %d times",
			k, v.ours, v.same, float64(v.loss)/float64(max(v.ours, 1)), v.judge)
	}
}

// kindTally counts, for one kind of move (judgedKind), our moves of that
// kind, how many of them the judge would have played too, their summed
// loss by the judge (its score before the move minus after, each clamped
// to ±judgedClamp, so a mate counts as judgedClamp) and how often the
// judge's own move was of that kind.
type kindTally struct {
	ours, same, loss, judge int
}

// judgedClamp bounds the judge's scores in a loss: a mate counts as
// this much.
const judgedClamp = 1000

// tallyKinds adds the positions of g that the judge saw before and after
// our move (positions still above judgedLost before it, where the move
// could matter) to kinds.
func tallyKinds(t *testing.T, g judgedGame, before map[int]judgedPos, record string, kinds map[string]*kindTally) {
	moves, err := ParseRecord(record, 15)
	if err != nil {
		t.Fatal(err)
	}
	clamp := func(v int) int { return max(-judgedClamp, min(judgedClamp, v)) }
	for _, p := range g.pos {
		q, ok := before[p.n]
		if !ok || q.judge <= judgedLost || q.reply == "" {
			continue
		}
		b := boardFrom(t, Freestyle, FormatRecord(moves[:p.n-1]))
		m := b.index(moves[p.n-1])
		alt, err := ParsePoint(q.reply, 15)
		if err != nil {
			t.Fatal(err)
		}
		ours, theirs := judgedKind(b, m), judgedKind(b, b.index(alt))
		for _, k := range []string{ours, theirs} {
			if kinds[k] == nil {
				kinds[k] = &kindTally{}
			}
		}
		kinds[ours].ours++
		kinds[ours].loss += clamp(q.judge) - clamp(p.judge)
		if alt == moves[p.n-1] {
			kinds[ours].same++
		}
		kinds[theirs].judge++
	}
}

// judgedBefore reads a TestJudgeLosses log of the positions before our
// moves (GOMOKU_JUDGE_BEFORE=1): per game, per move number, the judge's
// score and its move.
func judgedBefore(t *testing.T, path string) map[string]map[int]judgedPos {
	out := map[string]map[int]judgedPos{}
	// "before piskvork/0 black 47 l6 judge=-252 line=L6J6D7..."
	scanJudgeLines(t, path, "before", 7, func(key string, p judgedPos, _ []string) {
		if out[key] == nil {
			out[key] = map[int]judgedPos{}
		}
		out[key][p.n] = p
	})
	return out
}

// scanJudgeLines calls fn for each line of a TestJudgeLosses log that
// starts (after the test's prefix) with word and has at least min fields:
// the game's key ("piskvork/3 white"), the position (move number, move,
// the judge's score, the first move of its line) and the line's fields
// from word on.
func scanJudgeLines(t *testing.T, path, word string, min int, fn func(key string, p judgedPos, fs []string)) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		i := 0
		for i < len(fs) && fs[i] != word {
			i++
		}
		if len(fs)-i < min {
			continue
		}
		fs = fs[i:]
		n, err := strconv.Atoi(fs[3])
		if err != nil {
			t.Fatalf("%s: bad line %q", path, sc.Text())
		}
		p := judgedPos{n: n, move: fs[4], judge: judgeScore(strings.TrimPrefix(fs[5], "judge="))}
		if ms, err := ParseRecord(strings.ToLower(strings.TrimPrefix(fs[6], "line=")), 15); err == nil && len(ms) > 0 {
			p.reply = FormatRecord(ms[:1])
		}
		fn(fs[1]+" "+fs[2], p, fs)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// judgedLost and judgedLevel are the judge's scores (Rapfi's classical
// evaluation units, our side's view) below which a position counts as
// lost, and above which it counts as holding again.
const (
	judgedLost  = -300
	judgedLevel = -150
	judgedMate  = -30000
)

// judgedPos is one TestJudgeLosses line: the position after our move.
type judgedPos struct {
	n     int    // our move's number (1-based)
	move  string // our move
	judge int    // the judge's score; ±30000 for a mate
	reply string // the judge's best answer for the opponent
	ours  int    // our full engine's score
}

type judgedGame struct {
	key string // "piskvork/3 white"
	pos []judgedPos
}

// critical returns the index of the position after which the game stays
// lost by the judge, or -1.
func (g judgedGame) critical() int {
	k := -1
	for i := len(g.pos) - 1; i >= 0; i-- {
		v := g.pos[i].judge
		if v > judgedLevel {
			break
		}
		if v <= judgedLost {
			k = i
		}
	}
	return k
}

// judgedGames reads a TestJudgeLosses log, game by game in its order.
func judgedGames(t *testing.T, path string) []judgedGame {
	var games []judgedGame
	// "judge piskvork/0 black 9 g12 judge=+197 line=G13J10... ours=1905 best=g13 depth=14"
	scanJudgeLines(t, path, "judge", 10, func(key string, p judgedPos, fs []string) {
		ours, err := strconv.Atoi(strings.TrimPrefix(fs[7], "ours="))
		if err != nil {
			t.Fatalf("%s: bad line %q", path, strings.Join(fs, " "))
		}
		p.ours = ours
		if len(games) == 0 || games[len(games)-1].key != key {
			games = append(games, judgedGame{key: key})
		}
		games[len(games)-1].pos = append(games[len(games)-1].pos, p)
	})
	return games
}

// judgeScore reads "+85", "-85", "+M13" or "-M9"; a mate is ±30000 and an
// unknown score 0.
func judgeScore(s string) int {
	switch {
	case strings.HasPrefix(s, "+M"):
		return -judgedMate
	case strings.HasPrefix(s, "-M"):
		return judgedMate
	}
	v, _ := strconv.Atoi(s)
	return v
}

// lostRecords maps "opening colour" to the record of each lost game of a
// match log.
func lostRecords(t *testing.T, path string) map[string]string {
	out := map[string]string{}
	for _, g := range lostLines(t, path) {
		out[g.opening+" "+g.colour] = g.record
	}
	return out
}

// lostLine is a game our side lost, as a match log gives it.
type lostLine struct {
	opening, colour, record string
}

// lostLines reads the lost games of a match log, in its order: the lines
// "... piskvork/3 name as white: loss h8i9...". A loss line without the
// opening, the player and the colour before the colon is an error.
func lostLines(t *testing.T, path string) []lostLine {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []lostLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, ": loss ")
		if i < 0 {
			continue
		}
		head := strings.Fields(line[:i])
		if len(head) < 4 || head[len(head)-2] != "as" {
			t.Fatalf("%s: %q: want \"<opening> <player> as <colour>: loss <record>\"", path, line)
		}
		out = append(out, lostLine{head[len(head)-4], head[len(head)-1], strings.TrimSpace(line[i+len(": loss "):])})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// analyseCritical logs the losing move g.pos[k] of a game and counts it.
func analyseCritical(t *testing.T, g judgedGame, k int, record string, counts map[string]int) {
	p := g.pos[k]
	before := 0 // the judge's score after our previous move (level at the opening)
	if k > 0 {
		before = g.pos[k-1].judge
	}
	moves, err := ParseRecord(record, 15)
	if err != nil {
		t.Fatal(err)
	}
	b := boardFrom(t, Freestyle, FormatRecord(moves[:p.n-1]))
	m := b.index(moves[p.n-1])
	kind := judgedKind(b, m)
	big := opponentWinsByThreats(b, m)
	pn := opponentWinsByPN(b, m)
	r, err := NewEngine().Search(context.Background(), b, Limits{Nodes: 800_000})
	if err != nil {
		t.Fatal(err)
	}
	phase := "late (41+)"
	switch {
	case p.n <= 20:
		phase = "early (4-20)"
	case p.n <= 40:
		phase = "middle (21-40)"
	}
	proven := "not proven by ours"
	if big || pn {
		proven = "proven by ours"
	}
	counts[phase]++
	counts[kind]++
	counts[proven]++
	if p.judge == judgedMate {
		counts["judge mate"]++
	}
	if nodes := envUint(t, "GOMOKU_JUDGED_LONG", 0); nodes > 0 && (p.judge == judgedMate || pn) {
		verifyCritical(t, g.key, b, m, nodes)
	}
	t.Logf("lost %s: move %d %s (%s) judge %s -> %s, ours %d | threat win after it: big %v, pn %v | judge's reply %s | 800k nodes: %v %d | %s",
		g.key, p.n, p.move, kind, judgeText(before), judgeText(p.judge), p.ours, big, pn, p.reply,
		r.Best, r.Score, FormatRecord(moves[:p.n]))
}

func judgeText(v int) string {
	switch v {
	case judgedMate:
		return "mate"
	case -judgedMate:
		return "+mate"
	}
	return fmt.Sprint(v)
}

// judgedKind says what move m of the side to move in b was: the block of a
// four, a defence against an open three (the opponent had an open-four
// point), a four or three of ours, a block of the opponent's three point,
// or quiet.
func judgedKind(b *Board, m int) string {
	me := b.ToMove()
	opp := me.Other()
	switch {
	case b.classCount[opp][tFive] > 0:
		return "four block"
	case b.classCount[opp][tFlex4] > 0:
		return "three defence"
	case b.threat[me][m] >= tFour:
		return "our four or double"
	case b.threat[me][m] == tThree:
		return "our three"
	case b.threat[opp][m] >= tThree:
		return "takes their three point"
	}
	return "quiet"
}

// verifyCritical asks level 6's threat search (opponentWinsByPN) and then
// our full engine, for nodes nodes, about the position after the losing
// move m, and if either proves the opponent's win, the
// position after each of the first 12 root moves in order with a quarter
// of the nodes: the moves it does not prove lost are the candidates that
// hold (by our own engine; a filter set's facts).
func verifyCritical(t *testing.T, key string, b *Board, m int, nodes uint64) {
	lostAfter := func(mv int, n uint64) int {
		if opponentWinsByPN(b, mv) {
			return -WinScore
		}
		b.play(mv)
		defer b.undo()
		r, err := NewEngine().Search(context.Background(), b, Limits{Nodes: n})
		if err != nil {
			t.Fatal(err)
		}
		return -r.Score
	}
	s := lostAfter(m, nodes)
	if s > -WinThreshold {
		t.Logf("verify %s: %v not proven lost in %d nodes (%d)", key, b.point(m), nodes, s)
		return
	}
	roots := fullEngineFor(b).genRootMoves(b)
	var hold, lost []string
	for _, rm := range roots[:min(len(roots), 12)] {
		mv := int(rm.move)
		if mv == m {
			continue
		}
		if v := lostAfter(mv, nodes/4); v > -WinThreshold {
			hold = append(hold, fmt.Sprintf("%v(%d)", b.point(mv), v))
		} else {
			lost = append(lost, fmt.Sprint(b.point(mv)))
		}
	}
	t.Logf("verify %s: %v proven lost in %d nodes; not proven lost: %v; proven lost: %v | %s %v",
		key, b.point(m), nodes, hold, lost, FormatRecord(b.Moves()), b.point(m))
}
