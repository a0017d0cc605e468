package match

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/boardhall/boardhall/engine/reversi"
)

// Record is one game: who played which colour, the opening, the moves
// played after it (a forced pass written as reversi.Pass), a note per move
// from the player that made it (Noter; "" when it gave none) and the final
// score, black minus white.
type Record struct {
	Black, White string
	Opening      []reversi.Square
	Moves        []reversi.Square
	Notes        []string
	Score        int
}

// String writes the record as one line of six tab-separated fields: black,
// white, the opening and the moves as transcripts ("f5d6c3", "pa" for a
// pass), the score, and the notes separated by spaces ("-" for none).
// ParseRecord reads it back.
func (r Record) String() string {
	notes := make([]string, len(r.Moves))
	for i := range notes {
		notes[i] = "-"
		if i < len(r.Notes) && r.Notes[i] != "" {
			notes[i] = r.Notes[i]
		}
	}
	return strings.Join([]string{
		clean(r.Black), clean(r.White),
		reversi.FormatTranscript(r.Opening), reversi.FormatTranscript(r.Moves),
		strconv.Itoa(r.Score), strings.Join(notes, " "),
	}, "\t")
}

// clean keeps a name on its field: tabs and line ends become spaces.
func clean(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}

// ParseRecord reads a line written by Record.String and checks that the
// moves are legal and end the game with the recorded score.
func ParseRecord(line string) (Record, error) {
	f := strings.Split(strings.TrimRight(line, "\r\n"), "\t")
	if len(f) != 6 {
		return Record{}, fmt.Errorf("match: record: %d fields, want 6", len(f))
	}
	r := Record{Black: f[0], White: f[1]}
	var err error
	if r.Opening, err = reversi.ParseTranscript(f[2]); err != nil {
		return r, fmt.Errorf("match: record opening: %w", err)
	}
	if r.Moves, err = reversi.ParseTranscript(f[3]); err != nil {
		return r, fmt.Errorf("match: record moves: %w", err)
	}
	if r.Score, err = strconv.Atoi(f[4]); err != nil {
		return r, fmt.Errorf("match: record score: %w", err)
	}
	for _, n := range strings.Fields(f[5]) {
		if n == "-" {
			n = ""
		}
		r.Notes = append(r.Notes, n)
	}
	if len(r.Notes) != len(r.Moves) {
		return r, fmt.Errorf("match: record: %d notes for %d moves", len(r.Notes), len(r.Moves))
	}
	p, err := reversi.Replay(reversi.Start(), append(append([]reversi.Square(nil), r.Opening...), r.Moves...))
	if err != nil {
		return r, fmt.Errorf("match: record: %w", err)
	}
	if !p.GameOver() || p.FinalScore() != r.Score {
		return r, fmt.Errorf("match: record: the moves do not end the game with %+d", r.Score)
	}
	return r, nil
}

// Positions returns the position before each move of the record (the
// first is the position after the opening), passes included.
func (r Record) Positions() ([]reversi.Position, error) {
	p, err := reversi.Replay(reversi.Start(), r.Opening)
	if err != nil {
		return nil, err
	}
	out := make([]reversi.Position, 0, len(r.Moves))
	for i, m := range r.Moves {
		out = append(out, p)
		if p, err = reversi.Replay(p, []reversi.Square{m}); err != nil {
			return nil, fmt.Errorf("match: record move %d: %w", i+1, err)
		}
	}
	return out, nil
}

// ReadRecords reads a file of match records, one a line (Record.String);
// blank lines are skipped. An unreadable record is an error naming its
// line.
func ReadRecords(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		r, err := ParseRecord(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}
