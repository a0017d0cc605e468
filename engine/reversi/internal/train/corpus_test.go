package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCorpusRoundTrip packs a gen file's games, writes and reads them as a
// corpus file, and unpacks them: the samples come back byte for byte.
func TestCorpusRoundTrip(t *testing.T) {
	data, _, all := smallGenFile(t)
	games, err := packGames(all)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 6 {
		t.Fatalf("%d games packed, want 6", len(games))
	}
	var buf bytes.Buffer
	if err := writeCorpus(&buf, []string{"smallGen"}, games); err != nil {
		t.Fatal(err)
	}
	_, back, err := readCorpus(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	rec := make([]byte, sampleBytes)
	exact := 0
	for _, g := range back {
		ss, err := unpackGame(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ss {
			s.encode(rec)
			got = append(got, rec...)
			if s.exact {
				exact++
			}
		}
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("unpacked %d bytes differ from the %d written by gen", len(got), len(data))
	}
	if exact == 0 {
		t.Fatal("no exact position in the round trip: the test does not exercise the exact flags")
	}
}

// TestPackRefusesSearchLabels: a file whose labels are not the games'
// outcomes (as label writes) cannot be packed, since unpack could not give
// its labels back.
func TestPackRefusesSearchLabels(t *testing.T) {
	_, _, all := smallGenFile(t)
	all[3].score += 2
	if _, err := packGames(all); err == nil || !strings.Contains(err.Error(), "not the game's outcome") {
		t.Fatalf("pack of a relabelled position: %v, want an error naming the label", err)
	}
	all[3].score -= 2
	all[len(all)-1], all[len(all)-2] = all[len(all)-2], all[len(all)-1]
	if _, err := packGames(all); err == nil {
		t.Fatal("pack of positions out of order: no error")
	}
}

// TestReadCorpusErrors: every malformed corpus file is an error that names
// what is wrong, never a silently shorter data set.
func TestReadCorpusErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"no counts line", "0 f5d6\n", "no \"# games"},
		{"counts disagree", "# games 2 positions 2\n0 f5d6\n", "the counts line says"},
		{"bad count", "# games 1 positions 2\nx f5d6\n", "bad count"},
		{"negative count", "# games 1 positions 2\n-1 f5d6\n", "bad count"},
		{"too many inexact", "# games 1 positions 2\n3 f5d6\n", "inexact positions in a game of 2"},
		{"bad square", "# games 1 positions 2\n0 f5z9\n", "bad square"},
		{"written pass", "# games 1 positions 3\n0 f5pad6\n", "written pass"},
		{"no moves field", "# games 1 positions 0\n12\n", "want"},
		{"two counts lines", "# games 0 positions 0\n# games 0 positions 0\n", "second counts line"},
	} {
		if _, _, err := readCorpus(strings.NewReader(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// Read but refused by the rules: unpackGame.
	for _, c := range []struct{ name, text, want string }{
		{"illegal move", "# games 1 positions 2\n0 f5f5\n", "move 2"},
		{"unfinished game", "# games 1 positions 2\n0 f5d6\n", "does not end"},
	} {
		_, games, err := readCorpus(strings.NewReader(c.text))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, err := unpackGame(games[0]); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// TestCorpusFiles reads every file of the repository's corpus: each has a
// header saying how its games were made, its counts agree, and every game
// is legal and finished.
func TestCorpusFiles(t *testing.T) {
	files, err := filepath.Glob("corpus/*.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no corpus files in corpus/")
	}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		header, games, err := readCorpus(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !slices.ContainsFunc(header, func(h string) bool { return strings.HasPrefix(h, "gen ") }) {
			t.Errorf("%s: no \"# gen ...\" header line saying how the games were made", path)
		}
		for k, g := range games {
			if _, err := unpackGame(g); err != nil {
				t.Fatalf("%s: game %d: %v", path, k+1, err)
			}
		}
		t.Logf("%s: %d games", path, len(games))
	}
}

// FuzzReadCorpus: no input makes the reader panic, and what it accepts
// unpacks or is refused with an error; what unpacks packs back to itself.
func FuzzReadCorpus(f *testing.F) {
	f.Add([]byte("# gen -games 1\n# games 1 positions 2\n0 f5d6\n"))
	f.Add([]byte("# games 0 positions 0\n"))
	f.Add([]byte("# games 1 positions 3\n2 f5f6e6\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, games, err := readCorpus(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, g := range games {
			ss, err := unpackGame(g)
			if err != nil {
				continue
			}
			again, err := packGames(ss)
			if err != nil {
				t.Fatalf("a game that unpacks does not pack: %v", err)
			}
			if len(again) != 1 || again[0].inexact != g.inexact || len(again[0].moves) != len(g.moves) {
				t.Fatalf("packed back as %+v, was %+v", again, g)
			}
		}
	})
}

// TestPackNoteIsOneLine: a note with a line break would write a game line
// into the header (or a header line into the games), so pack refuses it.
func TestPackNoteIsOneLine(t *testing.T) {
	dir := t.TempDir()
	err := runPack([]string{"-in", filepath.Join(dir, "none.bin"), "-out", filepath.Join(dir, "c.txt.gz"), "-note", "gen\n0 f5d6"})
	if err == nil || !strings.Contains(err.Error(), "line break") {
		t.Fatalf("pack with a two-line note: %v, want an error about the line break", err)
	}
}

// TestUnpackLeavesNoPartialFile: when a corpus file is bad, unpack fails
// and removes its output rather than leave a shorter data set behind.
func TestUnpackLeavesNoPartialFile(t *testing.T) {
	data, bin, _ := smallGenFile(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt.gz")
	if err := runPack([]string{"-in", bin, "-out", good, "-note", "gen smallGen"}); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("# games 1 positions 2\n0 f5d6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.bin")
	err := runUnpack([]string{"-out", out, good, bad})
	if err == nil || !strings.Contains(err.Error(), "bad.txt: game 1") {
		t.Fatalf("unpack with an unfinished game: %v, want an error naming the file and game", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("unpack left its output behind after failing: %v", err)
	}
	if err := runUnpack([]string{"-out", out, good}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, data) {
		t.Fatalf("unpack of the good file: %d bytes, want gen's %d", len(got), len(data))
	}
}
