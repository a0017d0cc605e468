package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand"
	"os"
	"sync"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// A sample is one labelled position: the discs, the side to move and the
// final disc difference from the side to move's view under the play that
// followed (exact when Exact is set: perfect play from there on).
type sample struct {
	black, white uint64
	toMove       reversi.Color
	score        int8
	exact        bool
}

// sampleBytes is the size of a sample on disk: two bitboards, the side to
// move, the score and the exact flag.
const sampleBytes = 8 + 8 + 1 + 1 + 1

func (s sample) encode(b []byte) {
	binary.LittleEndian.PutUint64(b[0:], s.black)
	binary.LittleEndian.PutUint64(b[8:], s.white)
	b[16] = byte(s.toMove)
	b[17] = byte(s.score)
	b[18] = 0
	if s.exact {
		b[18] = 1
	}
}

func decodeSample(b []byte) sample {
	return sample{
		black:  binary.LittleEndian.Uint64(b[0:]),
		white:  binary.LittleEndian.Uint64(b[8:]),
		toMove: reversi.Color(b[16]),
		score:  int8(b[17]),
		exact:  b[18] == 1,
	}
}

func (s sample) position() reversi.Position {
	p, err := reversi.NewPosition(s.black, s.white, s.toMove)
	if err != nil {
		panic(err)
	}
	return p
}

// readSamples reads a file written by gen.
func readSamples(path string) ([]sample, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data)%sampleBytes != 0 {
		return nil, fmt.Errorf("train: %s: %d bytes is not a whole number of samples", path, len(data))
	}
	out := make([]sample, 0, len(data)/sampleBytes)
	for i := 0; i < len(data); i += sampleBytes {
		out = append(out, decodeSample(data[i:]))
	}
	return out, nil
}

// readGames reads a file written by gen (or label) and keeps the samples of
// its first n games; n 0 keeps them all.
func readGames(path string, n int) ([]sample, error) {
	samples, err := readSamples(path)
	if err != nil || n <= 0 {
		return samples, err
	}
	return firstGames(samples, n), nil
}

// genConfig says how the games are played.
type genConfig struct {
	games        int   // number of games
	seed         int64 // game g uses the random stream seed+g, so any range of games replays alike
	minRandom    int   // random opening plies: minRandom..maxRandom, uniformly
	maxRandom    int
	playDepth    int // midgame depth of both sides
	solveEmpties int // from this many empties both sides play perfectly and every position is solved
	workers      int
	linear       bool // play with the linear evaluation (weights.json), not the pattern tables
}

// genTableBytes is the table size of the engines that play the games:
// small, because each game starts by clearing it, and a depth-6 search or
// an 18-empties solve needs no more.
const genTableBytes = 4 << 20

// gen plays cfg.games games and writes their samples to w. Game g depends
// only on cfg.seed+g, so the data set is reproducible whatever the number of
// workers (the order in the file is by game).
func gen(ctx context.Context, cfg genConfig, w io.Writer, log io.Writer) error {
	type result struct {
		g       int
		samples []sample
	}
	jobs := make(chan int)
	results := make(chan result, cfg.workers)
	var wg sync.WaitGroup
	for k := 0; k < cfg.workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := reversi.NewEngineSize(genTableBytes)
			if cfg.linear {
				e.UseLinearEvaluation()
			}
			for g := range jobs {
				// A game must not depend on the games before it in
				// this worker (table entries change searches): clear.
				e.Clear()
				results <- result{g, playGame(ctx, e, cfg, cfg.seed+int64(g))}
			}
		}()
	}
	go func() {
		for g := 0; g < cfg.games; g++ {
			jobs <- g
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	bw := bufio.NewWriter(w)
	pending := map[int][]sample{}
	next, total := 0, 0
	start := time.Now()
	buf := make([]byte, sampleBytes)
	for r := range results {
		pending[r.g] = r.samples
		for {
			ss, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			for _, s := range ss {
				s.encode(buf)
				if _, err := bw.Write(buf); err != nil {
					return err
				}
			}
			total += len(ss)
			next++
			if next%100 == 0 {
				fmt.Fprintf(log, "%d games, %d positions, %v\n", next, total, time.Since(start).Round(time.Second))
			}
		}
	}
	fmt.Fprintf(log, "%d games, %d positions, %v\n", next, total, time.Since(start).Round(time.Second))
	return bw.Flush()
}

// playGame plays one game: random opening plies, then both sides at
// cfg.playDepth, then perfect play from cfg.solveEmpties empties with every
// position solved. Each position is labelled with the final result from
// its side to move's view.
func playGame(ctx context.Context, e *reversi.Engine, cfg genConfig, seed int64) []sample {
	rng := rand.New(rand.NewSource(seed))
	random := cfg.minRandom + rng.Intn(cfg.maxRandom-cfg.minRandom+1)
	p := reversi.Start()
	var hist []sample
	exactFrom := -1 // index in hist of the first solved position
	var exactScores []int
	for ply := 0; !p.GameOver(); ply++ {
		if p.MustPass() {
			p, _ = p.PlayPass()
			continue
		}
		hist = append(hist, sample{black: p.Black(), white: p.White(), toMove: p.ToMove()})
		var m reversi.Square
		switch {
		case ply < random:
			ms := p.LegalMoves()
			m = ms[rng.Intn(len(ms))]
		case p.Empties() <= cfg.solveEmpties:
			r, err := e.Search(ctx, p, reversi.Limits{Depth: 60})
			if err != nil {
				panic(err)
			}
			if exactFrom < 0 {
				exactFrom = len(hist) - 1
			}
			exactScores = append(exactScores, r.Score)
			m = r.Best
		default:
			r, err := e.Search(ctx, p, reversi.Limits{Depth: cfg.playDepth, EndgameEmpties: 1})
			if err != nil {
				panic(err)
			}
			m = r.Best
		}
		if exactFrom >= 0 && len(exactScores) != len(hist)-exactFrom {
			// A random ply inside the solved range: it has no exact score.
			exactScores = append(exactScores, 0)
		}
		p, _ = p.Play(m)
	}
	final := p.FinalScore() // black minus white
	for i := range hist {
		s := final
		if hist[i].toMove == reversi.White {
			s = -s
		}
		hist[i].score = int8(s)
		if exactFrom >= 0 && i >= exactFrom && i-exactFrom < len(exactScores) && i >= random {
			hist[i].score = int8(exactScores[i-exactFrom])
			hist[i].exact = true
		}
	}
	return hist
}
