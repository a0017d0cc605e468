package reversi

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
