#include "textflag.h"
#include "go_asm.h"

// The legal moves of one side in four directions at once: each 64-bit lane
// of a YMM register works on one direction (east-west, north-south and the
// two diagonals), shifted left in one pass and right in the other, with
// the same steps as legalMovesGo (see its comments). Variable shifts
// (VPSLLVQ, VPSRLVQ) give each lane its own distance.

// lineShift is each lane's step: 1 (a rank), 8 (a file), 7 and 9 (the
// diagonals); lineShift2 is twice it.
DATA lineShift<>+0(SB)/8, $1
DATA lineShift<>+8(SB)/8, $8
DATA lineShift<>+16(SB)/8, $7
DATA lineShift<>+24(SB)/8, $9
GLOBL lineShift<>(SB), RODATA|NOPTR, $32

DATA lineShift2<>+0(SB)/8, $2
DATA lineShift2<>+8(SB)/8, $16
DATA lineShift2<>+16(SB)/8, $14
DATA lineShift2<>+24(SB)/8, $18
GLOBL lineShift2<>(SB), RODATA|NOPTR, $32

// lineMask keeps the opponent discs a run can hold in each lane's
// direction: files b-g (innerFiles) except along a file.
DATA lineMask<>+0(SB)/8, $0x7E7E7E7E7E7E7E7E
DATA lineMask<>+8(SB)/8, $0xFFFFFFFFFFFFFFFF
DATA lineMask<>+16(SB)/8, $0x7E7E7E7E7E7E7E7E
DATA lineMask<>+24(SB)/8, $0x7E7E7E7E7E7E7E7E
GLOBL lineMask<>(SB), RODATA|NOPTR, $32

// MOVES computes in out the squares just past runs of the opponent's discs
// (om, masked by lineMask) that start next to a disc of me, in each lane's
// direction and both senses, before the empty squares are masked; Y14
// holds lineShift and Y15 lineShift2; t, u and pre are scratch. Shifting
// left by s: t = om & (me << s); t |= om & (t << s); pre = om & (om << s),
// the pairs of opponent discs; t |= pre & (t << 2s), twice; out = t << s.
// Then the same shifting right, with pre >> s as the pairs.
#define MOVES(me, om, t, u, pre, out) \
	VPSLLVQ Y14, me, t; \
	VPAND   om, t, t; \
	VPSLLVQ Y14, t, u; \
	VPAND   om, u, u; \
	VPOR    u, t, t; \
	VPSLLVQ Y14, om, pre; \
	VPAND   om, pre, pre; \
	VPSLLVQ Y15, t, u; \
	VPAND   pre, u, u; \
	VPOR    u, t, t; \
	VPSLLVQ Y15, t, u; \
	VPAND   pre, u, u; \
	VPOR    u, t, t; \
	VPSLLVQ Y14, t, out; \
	VPSRLVQ Y14, me, t; \
	VPAND   om, t, t; \
	VPSRLVQ Y14, t, u; \
	VPAND   om, u, u; \
	VPOR    u, t, t; \
	VPSRLVQ Y14, pre, pre; \
	VPSRLVQ Y15, t, u; \
	VPAND   pre, u, u; \
	VPOR    u, t, t; \
	VPSRLVQ Y15, t, u; \
	VPAND   pre, u, u; \
	VPOR    u, t, t; \
	VPSRLVQ Y14, t, t; \
	VPOR    t, out, out

// FOLD ORs the four lanes of the YMM register y (its low half x) into the
// general register r, using the XMM register s as scratch.
#define FOLD(y, x, s, r) \
	VEXTRACTI128 $1, y, s; \
	VPOR         s, x, x; \
	VPSHUFD      $0x4E, x, s; \
	VPOR         s, x, x; \
	VMOVQ        x, r

// LEGAL_MOVES(STEPS) is the body of a legalMoves function whose fill is
// the macro STEPS (MOVES or MOVES512): one side's moves, the empty squares
// masked, left in AX.
#define LEGAL_MOVES(STEPS) \
	VMOVDQU      lineShift<>(SB), Y14; \
	VMOVDQU      lineShift2<>(SB), Y15; \
	VPBROADCASTQ me+0(FP), Y0; \
	VPBROADCASTQ opp+8(FP), Y1; \
	VPAND        lineMask<>(SB), Y1, Y1; \
	STEPS(Y0, Y1, Y2, Y3, Y4, Y5); \
	FOLD(Y5, X5, X3, AX); \
	VZEROUPPER; \
	MOVQ         me+0(FP), BX; \
	ORQ          opp+8(FP), BX; \
	NOTQ         BX; \
	ANDQ         BX, AX

// LEGAL_MOVES_PAIR(STEPS) is the body of a legalMovesPair function: both
// sides' moves, the two fills side by side, left in AX and CX.
#define LEGAL_MOVES_PAIR(STEPS) \
	VMOVDQU      lineShift<>(SB), Y14; \
	VMOVDQU      lineShift2<>(SB), Y15; \
	VMOVDQU      lineMask<>(SB), Y13; \
	VPBROADCASTQ me+0(FP), Y0; \
	VPBROADCASTQ opp+8(FP), Y6; \
	VPAND        Y13, Y6, Y1; \
	VPAND        Y13, Y0, Y7; \
	STEPS(Y0, Y1, Y2, Y3, Y4, Y5); \
	STEPS(Y6, Y7, Y8, Y9, Y10, Y11); \
	FOLD(Y5, X5, X3, AX); \
	FOLD(Y11, X11, X9, CX); \
	VZEROUPPER; \
	MOVQ         me+0(FP), BX; \
	ORQ          opp+8(FP), BX; \
	NOTQ         BX; \
	ANDQ         BX, AX; \
	ANDQ         BX, CX

// func legalMovesAVX2(me, opp uint64) uint64
TEXT ·legalMovesAVX2(SB), NOSPLIT, $0-24
	LEGAL_MOVES(MOVES)
	MOVQ AX, ret+16(FP)
	RET

// func legalMovesPairAVX2(me, opp uint64) (mine, theirs uint64)
TEXT ·legalMovesPairAVX2(SB), NOSPLIT, $0-32
	LEGAL_MOVES_PAIR(MOVES)
	MOVQ AX, mine+16(FP)
	MOVQ CX, theirs+24(FP)
	RET

// MOVES512 is MOVES with AVX-512's three-input logic: each step's
// t |= x & (t << s) is one shift and one VPTERNLOGQ (0xF8: A | B & C)
// instead of a shift, an AND and an OR, which shortens the chain of
// dependent steps by a third.
#define MOVES512(me, om, t, u, pre, out) \
	VPSLLVQ    Y14, me, t; \
	VPAND      om, t, t; \
	VPSLLVQ    Y14, t, u; \
	VPTERNLOGQ $0xF8, u, om, t; \
	VPSLLVQ    Y14, om, pre; \
	VPAND      om, pre, pre; \
	VPSLLVQ    Y15, t, u; \
	VPTERNLOGQ $0xF8, u, pre, t; \
	VPSLLVQ    Y15, t, u; \
	VPTERNLOGQ $0xF8, u, pre, t; \
	VPSLLVQ    Y14, t, out; \
	VPSRLVQ    Y14, me, t; \
	VPAND      om, t, t; \
	VPSRLVQ    Y14, t, u; \
	VPTERNLOGQ $0xF8, u, om, t; \
	VPSRLVQ    Y14, pre, pre; \
	VPSRLVQ    Y15, t, u; \
	VPTERNLOGQ $0xF8, u, pre, t; \
	VPSRLVQ    Y15, t, u; \
	VPTERNLOGQ $0xF8, u, pre, t; \
	VPSRLVQ    Y14, t, t; \
	VPOR       t, out, out

// func legalMovesAVX512(me, opp uint64) uint64
TEXT ·legalMovesAVX512(SB), NOSPLIT, $0-24
	LEGAL_MOVES(MOVES512)
	MOVQ AX, ret+16(FP)
	RET

// func legalMovesPairAVX512(me, opp uint64) (mine, theirs uint64)
TEXT ·legalMovesPairAVX512(SB), NOSPLIT, $0-32
	LEGAL_MOVES_PAIR(MOVES512)
	MOVQ AX, mine+16(FP)
	MOVQ CX, theirs+24(FP)
	RET

// GATHER_DIAGONAL(OFF) adds to R12 the discs flipped along the line
// lineOf[sq][OFF/8] (its mask at OFF(R13)(DI*1)): both sides' discs on it
// gathered into a byte by one multiplication (SI holds 0x0101010101010101),
// the two table lookups of the move's bit (R8: lineOutflank[c], R9:
// lineFlips[c]), and the byte spread back over the line. Clobbers R10, R11,
// DX.
#define GATHER_DIAGONAL(OFF) \
	MOVQ    OFF(R13)(DI*1), R10 \
	MOVQ    BX, R11             \
	ANDQ    R10, R11            \
	IMULQ   SI, R11             \
	SHRQ    $56, R11            \
	MOVBQZX (R8)(R11*1), R11    \
	MOVQ    AX, DX              \
	ANDQ    R10, DX             \
	IMULQ   SI, DX              \
	SHRQ    $56, DX             \
	ANDQ    DX, R11             \
	MOVBQZX (R9)(R11*1), R11    \
	IMULQ   SI, R11             \
	ANDQ    R10, R11            \
	ORQ     R11, R12

// FLIP_RAYS computes in Y6 the discs flipped along the eight rays of a
// move, four to a register: Y0 holds the rays towards higher bits and Y1
// those towards lower bits (flipRays[sq]), Y2 the mover's discs and Y3 the
// opponent's in each lane; Y5 is zero, Y8 all ones and Y10 the top bit of
// each lane. Along each ray the first square that is not the opponent's
// closes the run if it is the mover's:
//   - towards higher bits it is the lowest set bit of ^opp & ray
//     (x & -x), and the flipped discs are the ray's squares below it;
//   - towards lower bits it is the highest set bit, found with a leading
//     zero count (VPLZCNTQ, the instruction AVX2 lacks; 64 for an empty
//     lane, and a shift by 64 gives 0), and the flipped discs are the
//     ray's squares above it.
// This is the method of the strong engines' vector code, written here from
// its description. Y4 and Y7 are scratch.
#define FLIP_RAYS \
	VPANDN   Y0, Y3, Y4; \
	VPSUBQ   Y4, Y5, Y6; \
	VPAND    Y4, Y6, Y6; \
	VPAND    Y2, Y6, Y6; \
	VPCMPEQQ Y5, Y6, Y7; \
	VPADDQ   Y8, Y6, Y6; \
	VPAND    Y0, Y6, Y6; \
	VPANDN   Y6, Y7, Y6; \
	VPANDN   Y1, Y3, Y4; \
	VPLZCNTQ Y4, Y4; \
	VPSRLVQ  Y4, Y10, Y4; \
	VPAND    Y2, Y4, Y4; \
	VPADDQ   Y4, Y4, Y4; \
	VPSUBQ   Y4, Y5, Y4; \
	VPAND    Y1, Y4, Y4; \
	VPOR     Y4, Y6, Y6

// FLIP_CONSTANTS sets Y5, Y8 and Y10 for FLIP_RAYS.
#define FLIP_CONSTANTS \
	VPXOR    Y5, Y5, Y5; \
	VPCMPEQQ Y8, Y8, Y8; \
	VPSLLQ   $63, Y8, Y10

// func flips(me, opp uint64, sq int) uint64
//
// With AVX-512 (useAVX512) FLIP_RAYS on the move's rays; without it,
// flipsTables.
TEXT ·flips(SB), NOSPLIT, $0-32
	CMPB ·useAVX512(SB), $0
	JEQ  tables
	MOVQ sq+16(FP), CX
	ANDQ $63, CX
	SHLQ $6, CX                     // 64 bytes of rays a square
	LEAQ ·flipRays(SB), DX
	VMOVDQU      (DX)(CX*1), Y0
	VMOVDQU      32(DX)(CX*1), Y1
	VPBROADCASTQ me+0(FP), Y2
	VPBROADCASTQ opp+8(FP), Y3
	FLIP_CONSTANTS
	FLIP_RAYS
	FOLD(Y6, X6, X7, AX)
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

tables:
	JMP ·flipsTables(SB)

// func flipsTables(me, opp uint64, sq int) uint64
//
// flipsGo's steps in the same order, with every value in a register: the
// compiler's code for them keeps five on the stack and takes 88 to 99
// instructions (with its frame), this 85. Over FFO positions flips ran 15%
// fewer instructions (cachegrind), and a call took about 12% less time
// (BenchmarkFlips).
TEXT ·flipsTables(SB), NOSPLIT, $0-32
	MOVQ me+0(FP), AX
	MOVQ opp+8(FP), BX
	MOVQ sq+16(FP), DI
	ANDQ $63, DI
	MOVQ DI, CX
	ANDQ $7, CX                // CX = c, the move's file
	MOVQ CX, R10
	SHLQ $8, R10
	LEAQ ·lineOutflank(SB), R8
	ADDQ R10, R8               // R8 = &lineOutflank[c]
	LEAQ ·lineFlips(SB), R9
	ADDQ R10, R9               // R9 = &lineFlips[c]

	// The file: each side's file gathered into a byte (fileByte), the
	// lookups at the move's rank r, the result spread back (fileOfByte).
	MOVQ    $0x0101010101010101, SI
	MOVQ    $0x0102040810204080, R13
	MOVQ    BX, R11
	SHRQ    CX, R11
	ANDQ    SI, R11
	IMULQ   R13, R11
	SHRQ    $56, R11
	MOVQ    AX, DX
	SHRQ    CX, DX
	ANDQ    SI, DX
	IMULQ   R13, DX
	SHRQ    $56, DX
	MOVQ    DI, R10
	ANDQ    $0x38, R10
	SHLQ    $5, R10            // R10 = 256r
	LEAQ    ·lineOutflank(SB), R13
	ADDQ    R10, R13
	MOVBQZX (R13)(R11*1), R11
	ANDQ    DX, R11
	LEAQ    ·lineFlips(SB), R13
	ADDQ    R10, R13
	MOVBQZX (R13)(R11*1), R11
	LEAQ    ·fileOfByte(SB), R13
	MOVQ    (R13)(R11*8), R12
	SHLQ    CX, R12            // R12 = the flipped discs so far

	// The rank: a byte of each board at 8r.
	MOVQ    DI, CX
	ANDQ    $0x38, CX
	MOVQ    BX, R11
	SHRQ    CX, R11
	MOVBQZX R11, R11
	MOVBQZX (R8)(R11*1), R11
	MOVQ    AX, DX
	SHRQ    CX, DX
	ANDQ    DX, R11
	MOVBQZX R11, R11
	MOVBQZX (R9)(R11*1), R11
	SHLQ    CX, R11
	ORQ     R11, R12

	// The diagonal and the anti-diagonal (lineOf[sq], 16 bytes a square).
	SHLQ $4, DI
	LEAQ ·lineOf(SB), R13
	GATHER_DIAGONAL(0)
	GATHER_DIAGONAL(8)

	MOVQ R12, ret+24(FP)
	RET

// The loops that make a node's children with their keys
// (solveKeysAVX512, orderKeysAVX512) share these steps. AX and BX hold the
// node's discs (Y2 and Y3 the same in each lane), SI the moves not yet
// made.
//
// KEYS_CONSTANTS sets the constants of FLIP_RAYS and MOVES512.
#define KEYS_CONSTANTS \
	FLIP_CONSTANTS; \
	VMOVDQU lineShift<>(SB), Y14; \
	VMOVDQU lineShift2<>(SB), Y15; \
	VMOVDQU lineMask<>(SB), Y13

// NEXT_CHILD takes the lowest move out of SI into R10 and makes its child:
// R12 the discs of the child's side to move, R13 the other side's.
// Clobbers CX, DX, R11, Y0, Y1, Y4, Y6 and Y7.
#define NEXT_CHILD \
	BSFQ    SI, R10; \
	LEAQ    -1(SI), DX; \
	ANDQ    DX, SI; \
	MOVQ    R10, CX; \
	SHLQ    $6, CX; \
	LEAQ    ·flipRays(SB), DX; \
	VMOVDQU (DX)(CX*1), Y0; \
	VMOVDQU 32(DX)(CX*1), Y1; \
	FLIP_RAYS; \
	FOLD(Y6, X6, X7, R11); \
	MOVQ    R11, R12; \
	NOTQ    R12; \
	ANDQ    BX, R12; \
	MOVQ    AX, R13; \
	ORQ     R11, R13; \
	BTSQ    R10, R13

// CHILD_REPLIES sets R15 to the child's legal moves (the replies) and DX to
// its empty squares. Clobbers Y4, Y6, Y7, Y9, Y11 and Y12. VMOVQ, not
// MOVQ: the legacy SSE form, between AVX instructions, costs Intel's
// processors a state transition each time (TestNoLegacySSEInAssembly).
#define CHILD_REPLIES \
	VMOVQ        R12, X11; \
	VPBROADCASTQ X11, Y11; \
	VMOVQ        R13, X12; \
	VPBROADCASTQ X12, Y12; \
	VPAND        Y13, Y12, Y12; \
	MOVES512(Y11, Y12, Y4, Y6, Y7, Y9); \
	FOLD(Y9, X9, X7, R15); \
	MOVQ         R12, DX; \
	ORQ          R13, DX; \
	NOTQ         DX; \
	ANDQ         DX, R15

// ADD_IF_SET(BITS, SHIFT) adds 1 << SHIFT to the key in R14 when the
// move's square (R10) is in BITS (a register). CX is scratch.
#define ADD_IF_SET(BITS, SHIFT) \
	BTQ     R10, BITS; \
	SETCS   CX; \
	MOVBQZX CX, CX; \
	SHLQ    $SHIFT, CX; \
	ADDQ    CX, R14

// STORE_CHILD stores the move's square (R10), key (R14) and child (R12,
// R13) at index R9 of the moveList at DI, and counts it.
#define STORE_CHILD \
	MOVB R10, moveList_sq(DI)(R9*1); \
	MOVL R14, moveList_key(DI)(R9*4); \
	MOVQ R12, moveList_me(DI)(R9*8); \
	MOVQ R13, moveList_opp(DI)(R9*8); \
	INCQ R9

// func solveKeysAVX512(me, opp, moves, odd uint64, l *moveList) int
//
// solveKey for every move of moves, in one loop with every value in a
// register: the children (FLIP_RAYS), their mobility (MOVES512) and the
// key's counts, stored into l from index 0. It returns their number.
TEXT ·solveKeysAVX512(SB), NOSPLIT, $0-48
	MOVQ         me+0(FP), AX
	MOVQ         opp+8(FP), BX
	MOVQ         moves+16(FP), SI
	MOVQ         odd+24(FP), R8
	MOVQ         l+32(FP), DI
	XORQ         R9, R9                 // R9 = the number of children
	VPBROADCASTQ me+0(FP), Y2
	VPBROADCASTQ opp+8(FP), Y3
	KEYS_CONSTANTS
	TESTQ        SI, SI
	JEQ          keysDone

keysLoop:
	NEXT_CHILD

	CHILD_REPLIES

	// R14 = -16 * (replies + corner replies)
	POPCNTQ R15, R14
	MOVQ    $0x8100000000000081, CX
	ANDQ    CX, R15
	POPCNTQ R15, R15
	ADDQ    R15, R14
	SHLQ    $4, R14
	NEGQ    R14

	// - 2 * potential mobility: the empties around the mover's discs.
	MOVQ    R13, R15
	SHLQ    $1, R15
	MOVQ    $0xFEFEFEFEFEFEFEFE, CX     // notFileA
	ANDQ    CX, R15
	MOVQ    R13, R11
	SHRQ    $1, R11
	MOVQ    $0x7F7F7F7F7F7F7F7F, CX     // notFileH
	ANDQ    CX, R11
	ORQ     R11, R15
	ORQ     R13, R15
	MOVQ    R15, R11
	SHLQ    $8, R11
	MOVQ    R15, CX
	SHRQ    $8, CX
	ORQ     R11, R15
	ORQ     CX, R15
	ANDQ    DX, R15
	POPCNTQ R15, R15
	SHLQ    $1, R15
	SUBQ    R15, R14

	// + 4 * the mover's corner-anchored discs (cornerAnchored).
	MOVQ    $0x8100000000000081, CX
	MOVQ    R13, R15
	ANDQ    CX, R15
	MOVQ    R15, R11
	SHLQ    $1, R11
	MOVQ    R15, CX
	SHRQ    $1, CX
	ORQ     CX, R11
	MOVQ    R15, CX
	SHLQ    $8, CX
	ORQ     CX, R11
	MOVQ    R15, CX
	SHRQ    $8, CX
	ORQ     CX, R11
	MOVQ    $0x4281000000008142, CX     // cSquareMask
	ANDQ    CX, R11
	ANDQ    R13, R11
	ORQ     R11, R15
	POPCNTQ R15, R15
	SHLQ    $2, R15
	ADDQ    R15, R14

	// + 4 for a square in an odd region.
	ADD_IF_SET(R8, 2)

	STORE_CHILD
	TESTQ SI, SI
	JNE  keysLoop

keysDone:
	VZEROUPPER
	MOVQ R9, ret+40(FP)
	RET

// func orderKeysAVX512(me, opp, moves uint64, l *moveList) int
//
// orderKey for every move of moves, in one loop with every value in a
// register, as solveKeysAVX512 does for the solver's key: the children
// (FLIP_RAYS), the opponent's replies (MOVES512), stored into l from index
// 0. It returns their number.
TEXT ·orderKeysAVX512(SB), NOSPLIT, $0-40
	MOVQ         me+0(FP), AX
	MOVQ         opp+8(FP), BX
	MOVQ         moves+16(FP), SI
	MOVQ         l+24(FP), DI
	XORQ         R9, R9                 // R9 = the number of children
	VPBROADCASTQ me+0(FP), Y2
	VPBROADCASTQ opp+8(FP), Y3
	KEYS_CONSTANTS
	MOVQ         $0x8100000000000081, R8 // cornerMask
	TESTQ        SI, SI
	JEQ          orderDone

orderLoop:
	NEXT_CHILD

	CHILD_REPLIES

	// R14 = -16 * replies - 32 * corner replies, + 64 for a corner move.
	POPCNTQ R15, R14
	ANDQ    R8, R15
	POPCNTQ R15, R15
	ADDQ    R15, R15
	ADDQ    R15, R14
	SHLQ    $4, R14
	NEGQ    R14
	ADD_IF_SET(R8, 6)

	STORE_CHILD
	TESTQ SI, SI
	JNE  orderLoop

orderDone:
	VZEROUPPER
	MOVQ R9, ret+32(FP)
	RET

// func prefetch(p unsafe.Pointer)
TEXT ·prefetch(SB), NOSPLIT, $0-8
	MOVQ       p+0(FP), AX
	PREFETCHT0 (AX)
	RET

// FULL_HALF(SHIFT, OFF1, OFF2, OFF4) leaves in Y0 fullUp (SHIFT is VPSRLVQ)
// or fullDown (VPSLLVQ) of the occupied squares in Y15, for each lane's
// line kind, with DI pointing at the stableConstants: the squares from which the
// line is occupied up to the edge that way, checked over 1, 2 and 4 steps
// (OFF1.. are the squares with no square that far, which pass). Y1 is
// scratch.
#define FULL_HALF(SHIFT, OFF1, OFF2, OFF4) \
	SHIFT stableConstants_step(DI), Y15, Y0; \
	VPOR  OFF1(DI), Y0, Y0; \
	VPAND Y15, Y0, Y0; \
	SHIFT stableConstants_step2(DI), Y0, Y1; \
	VPOR  OFF2(DI), Y1, Y1; \
	VPAND Y1, Y0, Y0; \
	SHIFT stableConstants_step4(DI), Y0, Y1; \
	VPOR  OFF4(DI), Y1, Y1; \
	VPAND Y1, Y0, Y0

// EDGE_STEP(UP, DOWN) is one step of the fill along the edges: Y6 (the
// discs reached) grows by those of Y5 (the discs it may pass through) one
// step of UP or DOWN (the lanes' shift counts at DI) away. Y7 and Y8 are
// scratch.
#define EDGE_STEP(UP, DOWN) \
	VPSLLVQ UP(DI), Y6, Y7; \
	VPSRLVQ DOWN(DI), Y6, Y8; \
	VPOR    Y8, Y7, Y7; \
	VPAND   Y5, Y7, Y7; \
	VPOR    Y7, Y6, Y6

// EDGE_PASS(UP, DOWN) narrows Y5 to the discs whose neighbour UP or DOWN
// away is in it too, for the next EDGE_STEP's doubled distance.
#define EDGE_PASS(UP, DOWN) \
	VPSLLVQ UP(DI), Y5, Y7; \
	VPSRLVQ DOWN(DI), Y5, Y8; \
	VPOR    Y8, Y7, Y7; \
	VPAND   Y7, Y5, Y5

// func stableAVX2(mine, occupied uint64, c *stableConstants) uint64
//
// stableWith(mine, fullLines(occupied)): fullLines as fullUp and fullDown
// with each line kind in a lane; the discs of mine joined to its corners
// along the edges, by a fill east, north, west and south in 1, 2 and 4
// steps (one direction a lane); then stableFrom's rounds from those.
TEXT ·stableAVX2(SB), NOSPLIT, $0-32
	MOVQ         mine+0(FP), BX
	MOVQ         c+16(FP), DI
	VPBROADCASTQ occupied+8(FP), Y15
	FULL_HALF(VPSRLVQ, stableConstants_upOff1, stableConstants_upOff2, stableConstants_upOff4)
	VMOVDQA      Y0, Y2
	FULL_HALF(VPSLLVQ, stableConstants_downOff1, stableConstants_downOff2, stableConstants_downOff4)
	VPAND        Y2, Y0, Y0
	VPOR         stableConstants_wall(DI), Y0, Y12 // a line is full or the wall is beside

	MOVQ         $0x8100000000000081, AX // cornerMask
	ANDQ         BX, AX
	VPBROADCASTQ mine+0(FP), Y5
	VPAND        stableConstants_fillIn(DI), Y5, Y5
	VMOVQ        AX, X6
	VPBROADCASTQ X6, Y6
	EDGE_STEP(stableConstants_fillUp1, stableConstants_fillDown1)
	EDGE_PASS(stableConstants_fillUp1, stableConstants_fillDown1)
	EDGE_STEP(stableConstants_fillUp2, stableConstants_fillDown2)
	EDGE_PASS(stableConstants_fillUp2, stableConstants_fillDown2)
	EDGE_STEP(stableConstants_fillUp4, stableConstants_fillDown4)
	FOLD(Y6, X6, X7, AX)

	// The rounds in general registers, whose shifts run side by side:
	// on vectors each round waited on the lanes' AND (FOLD_AND) and
	// took about twice as long.
	VMOVQ        X12, R8
	VPEXTRQ      $1, X12, R9
	VEXTRACTI128 $1, Y12, X12
	VMOVQ        X12, R10
	VPEXTRQ      $1, X12, R11
	VZEROUPPER
	MOVQ         $0xFEFEFEFEFEFEFEFE, R12 // notFileA
	MOVQ         $0x7F7F7F7F7F7F7F7F, R13 // notFileH

round:
	// A disc of mine is stable when, on each line kind, its line is full
	// or the wall or a stable disc stands beside it.
	MOVQ AX, CX
	SHLQ $1, CX
	ANDQ R12, CX
	MOVQ AX, DX
	SHRQ $1, DX
	ANDQ R13, DX
	ORQ  DX, CX
	ORQ  R8, CX
	MOVQ AX, DX
	SHLQ $8, DX
	MOVQ AX, SI
	SHRQ $8, SI
	ORQ  SI, DX
	ORQ  R9, DX
	ANDQ DX, CX
	MOVQ AX, DX
	SHLQ $9, DX
	ANDQ R12, DX
	MOVQ AX, SI
	SHRQ $9, SI
	ANDQ R13, SI
	ORQ  SI, DX
	ORQ  R10, DX
	ANDQ DX, CX
	MOVQ AX, DX
	SHLQ $7, DX
	ANDQ R13, DX
	MOVQ AX, SI
	SHRQ $7, SI
	ANDQ R12, SI
	ORQ  SI, DX
	ORQ  R11, DX
	ANDQ DX, CX
	ANDQ BX, CX
	ORQ  AX, CX
	CMPQ CX, AX
	MOVQ CX, AX
	JNE  round
	MOVQ AX, ret+24(FP)
	RET
