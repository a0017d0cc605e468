package reversi

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// vectorInstruction matches an instruction that names a vector register
// (X0-X31, Y0-Y31, Z0-Z31), with its mnemonic as the first group.
var vectorInstruction = regexp.MustCompile(`^([A-Z][A-Z0-9]*)\s+.*\b[XYZ]([0-9]|[12][0-9]|3[01])\b`)

// legacySSE returns the mnemonic of ins, one instruction of Go assembly,
// and whether it is a legacy SSE encoding: a vector register without a V
// mnemonic.
func legacySSE(ins string) (string, bool) {
	m := vectorInstruction.FindStringSubmatch(ins)
	if m == nil || strings.HasPrefix(m[1], "V") {
		return "", false
	}
	return m[1], true
}

// TestNoLegacySSEInAssembly checks that the assembly writes every
// instruction on a vector register in its VEX or EVEX form (a V mnemonic).
// Between AVX instructions and VZEROUPPER, a legacy SSE instruction costs
// Intel processors a state transition each time: two MOVQ R, X in the
// key loops made them 13-20 times slower than their Go loops on a Xeon
// with AVX-512 (BenchmarkKeys), and FFO #40-#49 4.2 times slower (AMD's
// processors have no such penalty, which is why it went unseen; thirty-
// seventh session, docs/benchmarks.md).
func TestNoLegacySSEInAssembly(t *testing.T) {
	files, err := filepath.Glob("*.s")
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob(filepath.Join("internal", "pattern", "*.s"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, more...)
	if len(files) < 2 {
		t.Fatalf("found %v, want this package's and internal/pattern's assembly", files)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		params := map[string]bool{} // the parameters of the macro being defined
		for i, line := range strings.Split(string(data), "\n") {
			code, _, _ := strings.Cut(line, "//")
			code = strings.TrimSpace(code)
			if def, ok := strings.CutPrefix(code, "#define "); ok {
				params = map[string]bool{}
				if _, list, ok := strings.Cut(def, "("); ok {
					list, _, _ = strings.Cut(list, ")")
					for _, p := range strings.Split(list, ",") {
						params[strings.TrimSpace(p)] = true
					}
				}
			}
			for _, ins := range strings.Split(strings.TrimSuffix(code, `\`), ";") {
				ins = strings.TrimSpace(ins)
				// A mnemonic that is a macro's parameter (FULL_HALF's
				// SHIFT) is checked where the macro is used.
				if op, ok := legacySSE(ins); ok && !params[op] {
					t.Errorf("%s:%d: %q is a legacy SSE instruction; write its VEX form (V%s)", name, i+1, ins, op)
				}
			}
			if !strings.HasSuffix(code, `\`) {
				params = map[string]bool{} // the macro's body has ended
			}
		}
	}
}

// TestLegacySSE checks legacySSE's verdict on instructions of both kinds
// and on lines that are not vector instructions.
func TestLegacySSE(t *testing.T) {
	for _, c := range []struct {
		ins    string
		legacy bool
	}{
		{"MOVQ R12, X11", true},
		{"PXOR X0, X0", true},
		{"MOVOU (AX), X3", true},
		{"VMOVQ R12, X11", false},
		{"VPBROADCASTQ X11, Y11", false},
		{"MOVQ R12, DX", false},
		{"FOLD(Y6, X6, X7, AX)", false},
		{"TEXT ·flips(SB), NOSPLIT, $0-32", false},
	} {
		if _, got := legacySSE(c.ins); got != c.legacy {
			t.Errorf("%q: legacy %v, want %v", c.ins, got, c.legacy)
		}
	}
}
