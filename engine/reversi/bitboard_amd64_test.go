package reversi

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// platformFlipsVersions: on amd64, flips runs on AVX-512 where the
// processor has it, so the assembly without vectors is tested on its own.
var platformFlipsVersions = []flipsVersion{{"flipsTables", flipsTables}}

// platformMovesVersions: on amd64 the vector move generation, each version
// the processor can run (the fastest is also legalMoves).
var platformMovesVersions = func() (vs []movesVersion) {
	if useAVX2 {
		vs = append(vs,
			movesVersion{"legalMovesAVX2", func(me, opp uint64) (uint64, uint64) {
				return legalMovesAVX2(me, opp), legalMovesAVX2(opp, me)
			}},
			movesVersion{"legalMovesPairAVX2", legalMovesPairAVX2})
	}
	if useAVX512 {
		vs = append(vs,
			movesVersion{"legalMovesAVX512", func(me, opp uint64) (uint64, uint64) {
				return legalMovesAVX512(me, opp), legalMovesAVX512(opp, me)
			}},
			movesVersion{"legalMovesPairAVX512", legalMovesPairAVX512})
	}
	return vs
}()

// searchFingerprint searches FFO #40 to the end and the five benchmark
// midgame positions to depth 8, and returns each search's move, score and
// nodes: the same text on every processor when the vector code and the
// plain code make the same trees.
func searchFingerprint(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, fp := range readFFO(t) {
		if fp.id == 40 {
			r, err := NewEngine().Search(context.Background(), fp.pos, Limits{Depth: 60})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "ffo40 %s %d %d; ", r.Best, r.Score, r.Nodes)
		}
	}
	for i, p := range midgamePositions(t) {
		r, err := NewEngine().Search(context.Background(), p, Limits{Depth: 8})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "mid%d %s %d %d; ", i, r.Best, r.Score, r.Nodes)
	}
	return b.String()
}

// TestWithoutVectors runs the package's move, flip, stability and key tests
// again in child processes with AVX-512 turned off, then AVX2 too
// (GODEBUG, which golang.org/x/sys/cpu reads), so that the paths of other
// processors run here; and checks that each child searches the same trees
// as this process (searchFingerprint): every processor plays the same
// moves.
func TestWithoutVectors(t *testing.T) {
	if os.Getenv("REVERSI_TEST_CHILD") == "1" {
		t.Logf("vectors: avx2=%v avx512=%v", useAVX2, useAVX512)
		t.Logf("fingerprint: %s", searchFingerprint(t))
		return
	}
	want := searchFingerprint(t)
	for _, v := range []struct{ godebug, vectors string }{
		{"cpu.avx512f=off", fmt.Sprintf("avx2=%v avx512=false", useAVX2)},
		{"cpu.avx2=off,cpu.avx512f=off", "avx2=false avx512=false"},
	} {
		godebug := v.godebug
		if old := os.Getenv("GODEBUG"); old != "" {
			godebug = old + "," + godebug
		}
		cmd := exec.Command(os.Args[0], "-test.v", "-test.count=1",
			"-test.run", "^(TestWithoutVectors|TestFlips|TestLegalMoves|TestStableAll|TestSolveKeys|TestOrderKeys|TestSolverAgainstMinimax)$")
		cmd.Env = append(os.Environ(), "GODEBUG="+godebug, "REVERSI_TEST_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GODEBUG=%s: %v\n%s", godebug, err, out)
		}
		text := string(out)
		if !strings.Contains(text, "vectors: "+v.vectors) {
			t.Errorf("GODEBUG=%s: the child did not run with %s:\n%s", godebug, v.vectors, text)
		}
		if !strings.Contains(text, "fingerprint: "+want) {
			t.Errorf("GODEBUG=%s: the child's searches differ; want %q in\n%s", godebug, want, text)
		}
	}
}
