package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"os"
	"strconv"
	"strings"

	"github.com/boardhall/boardhall/engine/reversi"
)

// The corpus: self-play games kept in the repository (corpus/), so that the
// data set grows from session to session instead of being played again and
// thrown away. A file written by gen holds every position of its games with
// a label, 19 bytes a position (91 MB for 80,000 games); but a gen game's
// labels follow from its moves (each is the game's final disc difference
// from the side to move's view, exact or not), so the corpus keeps only the
// moves: one game a line, about 49 bytes a game once gzipped. unpack turns
// corpus files back into gen's format, byte for byte, for fit, label, check
// and the rest.
//
// A corpus file is gzipped text. Lines starting with "#" are its header:
// how the games were made (the gen command, the build that played them) and
// a line "# games G positions P" that unpack checks. Every other line is a
// game:
//
//	<inexact> <moves>
//
// where <moves> is the transcript of every move ("f5d6c3...", passes left
// out: they are implicit, as in most published transcripts) and <inexact>
// the number of its positions (one per move) whose label is not exact: the
// positions from there on were solved (gen's -solve) and carry the exact
// flag.

// corpusGame is one game of the corpus.
type corpusGame struct {
	inexact int              // positions before the first exact one
	moves   []reversi.Square // every move, passes left out
}

// packGames turns the samples of a gen file into games. It fails when a
// sample is not where the game's moves lead, or when a label is not the
// game's outcome (a file written by label, whose labels are searches, is
// not a game file), so that unpack gives back exactly what was packed.
func packGames(all []sample) ([]corpusGame, error) {
	var games []corpusGame
	for start := 0; start < len(all); {
		if !isStart(all[start]) {
			return nil, fmt.Errorf("pack: position %d: a game does not begin at the starting position", start)
		}
		end := start + 1
		for end < len(all) && !isStart(all[end]) {
			end++
		}
		g, err := packGame(all[start:end])
		if err != nil {
			return nil, fmt.Errorf("pack: game %d (positions %d-%d): %w", len(games), start, end-1, err)
		}
		games = append(games, g)
		start = end
	}
	return games, nil
}

// packGame packs the samples of one game: the moves are read off the
// squares each position adds, and one replay of them (unpackGame) then
// checks every position, exact flag and label against the samples.
func packGame(ss []sample) (corpusGame, error) {
	g := corpusGame{inexact: len(ss)}
	for i, s := range ss {
		if s.exact {
			g.inexact = i
			break
		}
	}
	for i := 0; i+1 < len(ss); i++ {
		added := (ss[i+1].black | ss[i+1].white) &^ (ss[i].black | ss[i].white)
		if bits.OnesCount64(added) != 1 {
			return g, fmt.Errorf("positions %d and %d are not one move apart", i, i+1)
		}
		g.moves = append(g.moves, reversi.Square(bits.TrailingZeros64(added)))
	}
	// The last position's move ends the game (any later position would have
	// been sampled); of the moves that do, take one with the labelled result:
	// any such move gives back the same samples.
	last := ss[len(ss)-1]
	p := last.position()
	found := false
	for _, m := range p.LegalMoves() {
		next, _ := p.Play(m)
		if next.GameOver() && outcomeFor(next, last.toMove) == int(last.score) {
			g.moves = append(g.moves, m)
			found = true
			break
		}
	}
	if !found {
		return g, fmt.Errorf("no move of the last position ends the game with its label %d", last.score)
	}
	back, err := unpackGame(g)
	if err != nil {
		return g, err
	}
	for i, b := range back {
		s := ss[i]
		switch {
		case b.black != s.black || b.white != s.white || b.toMove != s.toMove:
			return g, fmt.Errorf("position %d is not where the moves before it lead", i)
		case b.exact != s.exact:
			return g, fmt.Errorf("position %d: the exact positions are not the game's last ones", i)
		case b.score != s.score:
			return g, fmt.Errorf("position %d: label %d is not the game's outcome %d (pack takes files written by gen, not by label)", i, s.score, b.score)
		}
	}
	return g, nil
}

// outcomeFor is a finished game's disc difference from c's view.
func outcomeFor(end reversi.Position, c reversi.Color) int {
	s := end.FinalScore() // black minus white
	if c == reversi.White {
		s = -s
	}
	return s
}

// unpackGame replays a game and returns its samples, as gen wrote them.
func unpackGame(g corpusGame) ([]sample, error) {
	if g.inexact < 0 || g.inexact > len(g.moves) {
		return nil, fmt.Errorf("%d inexact positions in a game of %d moves", g.inexact, len(g.moves))
	}
	p := reversi.Start()
	out := make([]sample, 0, len(g.moves))
	for i, m := range g.moves {
		if p.GameOver() {
			return nil, fmt.Errorf("move %d (%s): the game is over", i+1, m)
		}
		if p.MustPass() {
			p, _ = p.PlayPass()
		}
		out = append(out, sample{black: p.Black(), white: p.White(), toMove: p.ToMove(), exact: i >= g.inexact})
		next, err := p.Play(m)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		p = next
	}
	if !p.GameOver() {
		return nil, fmt.Errorf("the game does not end after its %d moves", len(g.moves))
	}
	for i := range out {
		out[i].score = int8(outcomeFor(p, out[i].toMove))
	}
	return out, nil
}

// writeCorpus writes games as a gzipped corpus file with the header lines
// given (each written after "# ") and the counts line.
func writeCorpus(w io.Writer, header []string, games []corpusGame) error {
	zw := gzip.NewWriter(w)
	bw := bufio.NewWriter(zw)
	positions := 0
	for _, g := range games {
		positions += len(g.moves)
	}
	for _, h := range header {
		fmt.Fprintf(bw, "# %s\n", h)
	}
	fmt.Fprintf(bw, "# games %d positions %d\n", len(games), positions)
	for _, g := range games {
		fmt.Fprintf(bw, "%d %s\n", g.inexact, reversi.FormatTranscript(g.moves))
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// readCorpus reads a corpus file's header lines (without their "# ") and
// games (gzipped or plain text) and checks the games against its counts
// line. Games are checked for their notation here, against the rules by
// unpackGame.
func readCorpus(r io.Reader) (header []string, games []corpusGame, err error) {
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, err
		}
		defer zr.Close()
		br = bufio.NewReader(zr)
	}
	wantGames, wantPositions, positions := -1, -1, 0
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 4096), 4096)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			header = append(header, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			var g, p int
			if c, _ := fmt.Sscanf(line, "# games %d positions %d", &g, &p); c == 2 {
				if wantGames >= 0 {
					return nil, nil, fmt.Errorf("line %d: a second counts line", n)
				}
				wantGames, wantPositions = g, p
			}
			continue
		}
		count, transcript, ok := strings.Cut(line, " ")
		if !ok {
			return nil, nil, fmt.Errorf("line %d: want \"<inexact> <moves>\", got %q", n, line)
		}
		inexact, err := strconv.Atoi(count)
		if err != nil || inexact < 0 {
			return nil, nil, fmt.Errorf("line %d: bad count of inexact positions %q", n, count)
		}
		moves, err := reversi.ParseTranscript(transcript)
		if err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", n, err)
		}
		for _, m := range moves {
			if m == reversi.Pass {
				return nil, nil, fmt.Errorf("line %d: a written pass (passes are left out of corpus games)", n)
			}
		}
		if inexact > len(moves) {
			return nil, nil, fmt.Errorf("line %d: %d inexact positions in a game of %d moves", n, inexact, len(moves))
		}
		games = append(games, corpusGame{inexact: inexact, moves: moves})
		positions += len(moves)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if wantGames < 0 {
		return nil, nil, fmt.Errorf("no \"# games G positions P\" line")
	}
	if len(games) != wantGames || positions != wantPositions {
		return nil, nil, fmt.Errorf("%d games and %d positions, the counts line says %d and %d", len(games), positions, wantGames, wantPositions)
	}
	return header, games, nil
}

// readCorpusFile reads one corpus file.
func readCorpusFile(path string) ([]corpusGame, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	_, games, err := readCorpus(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return games, nil
}

// runPack is the "pack" command: a gen file's games into a corpus file.
func runPack(args []string) error {
	fs := flag.NewFlagSet("pack", flag.ExitOnError)
	in := fs.String("in", "", "file written by gen")
	out := fs.String("out", "", "corpus file to write (gzipped text)")
	var notes multiFlag
	fs.Var(&notes, "note", "a header line: how the games were made (repeatable)")
	fs.Parse(args)
	if *in == "" || *out == "" || len(notes) == 0 {
		return fmt.Errorf("pack: -in, -out and at least one -note (the gen command and the build that played) are required")
	}
	for _, n := range notes {
		if strings.ContainsAny(n, "\r\n") {
			return fmt.Errorf("pack: a -note is one header line; %q has a line break", n)
		}
	}
	all, err := readSamples(*in)
	if err != nil {
		return err
	}
	games, err := packGames(all)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := closeOutput(f, writeCorpus(f, notes, games)); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "pack: %d games, %d positions\n", len(games), len(all))
	return nil
}

// runUnpack is the "unpack" command: corpus files, in the order given, into
// one file in gen's format.
func runUnpack(args []string) error {
	fs := flag.NewFlagSet("unpack", flag.ExitOnError)
	out := fs.String("out", "", "file to write, in gen's format")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: train unpack -out FILE CORPUS.txt.gz...")
		fs.PrintDefaults()
	}
	fs.Parse(args)
	if *out == "" || fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("unpack: -out and at least one corpus file are required")
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	games, positions, err := unpackFiles(f, fs.Args())
	if err := closeOutput(f, err); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "unpack: %d games, %d positions\n", games, positions)
	return nil
}

// unpackFiles writes the samples of the corpus files' games to w, in gen's
// format, and returns how many games and positions it wrote.
func unpackFiles(w io.Writer, paths []string) (games, positions int, err error) {
	bw := bufio.NewWriter(w)
	buf := make([]byte, sampleBytes)
	for _, path := range paths {
		gs, err := readCorpusFile(path)
		if err != nil {
			return 0, 0, err
		}
		for k, g := range gs {
			ss, err := unpackGame(g)
			if err != nil {
				return 0, 0, fmt.Errorf("%s: game %d: %w", path, k+1, err)
			}
			for _, s := range ss {
				s.encode(buf)
				bw.Write(buf) // a write error sticks and is returned by Flush
			}
			positions += len(ss)
		}
		games += len(gs)
	}
	return games, positions, bw.Flush()
}

// closeOutput closes the output file f, given err, the result of writing
// it, and removes the file when writing or closing failed: a partial corpus
// or data set would pass for a whole one.
func closeOutput(f *os.File, err error) error {
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, "; ") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }
