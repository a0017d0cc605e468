//go:build !amd64

package reversi

// platformFlipsVersions: other processors than amd64 have no other flips
// than flipsGo.
var platformFlipsVersions []flipsVersion

// platformMovesVersions: other processors than amd64 have no other move
// generation than legalMovesGo.
var platformMovesVersions []movesVersion
