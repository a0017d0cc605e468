package web_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/boardhall/boardhall/engine/gomoku"
	"github.com/boardhall/boardhall/engine/reversi"
)

// transcriptCase is one entry of testdata/transcripts.json, the fixtures the
// client's unit tests check formatTranscript and parseTranscript against.
type transcriptCase struct {
	Name   string   `json:"name"`
	Game   string   `json:"game"`
	Size   int      `json:"size"`
	Text   string   `json:"text"`
	Moves  []string `json:"moves"`
	Full   bool     `json:"full"`
	Result *struct {
		Black int `json:"black"`
		White int `json:"white"`
	} `json:"result"`
}

// TestEnginesReadClientTranscripts checks that the record the client exports
// is read back by the engines' own notation, ply for ply, and that a full
// game the client exported replays legally to its result.
func TestEnginesReadClientTranscripts(t *testing.T) {
	raw, err := os.ReadFile("testdata/transcripts.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []transcriptCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, tc := range file.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			var got []string
			switch tc.Game {
			case "reversi":
				sqs, err := reversi.ParseTranscript(tc.Text)
				if err != nil {
					t.Fatalf("reversi.ParseTranscript(%q): %v", tc.Text, err)
				}
				for _, s := range sqs {
					got = append(got, s.String())
				}
				if back := reversi.FormatTranscript(sqs); back != tc.Text {
					t.Errorf("FormatTranscript = %q, want %q", back, tc.Text)
				}
				if tc.Full {
					p, err := reversi.Replay(reversi.Start(), sqs)
					if err != nil {
						t.Fatalf("Replay: %v", err)
					}
					if !p.GameOver() {
						t.Fatalf("the exported game is not over")
					}
					b, w := p.Count()
					if tc.Result != nil && (b != tc.Result.Black || w != tc.Result.White) {
						t.Errorf("final counts %d-%d, the client showed %d-%d", b, w, tc.Result.Black, tc.Result.White)
					}
				}
			case "gomoku":
				pts, err := gomoku.ParseRecord(tc.Text, tc.Size)
				if err != nil {
					t.Fatalf("gomoku.ParseRecord(%q): %v", tc.Text, err)
				}
				for _, p := range pts {
					got = append(got, p.String())
				}
				if back := gomoku.FormatRecord(pts); back != tc.Text {
					t.Errorf("FormatRecord = %q, want %q", back, tc.Text)
				}
			default:
				t.Fatalf("unknown game %q", tc.Game)
			}
			if tc.Moves == nil {
				return
			}
			if len(got) != len(tc.Moves) {
				t.Fatalf("engine read %v, client wrote %v", got, tc.Moves)
			}
			for i := range got {
				if got[i] != tc.Moves[i] {
					t.Errorf("ply %d: engine read %q, client wrote %q", i+1, got[i], tc.Moves[i])
				}
			}
		})
	}
}
