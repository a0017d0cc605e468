package reversi

// The solver's table for positions near the end. Positions with few
// empties are many and their subtrees small, so a probe must be cheap;
// one into the whole 16 MiB table is a cache miss (and often a TLB miss)
// and cost a tenth of a solve's time. The solver therefore keeps the
// positions with localTableMaxEmpties empties or fewer in the first
// localTableEntries slots of its table: a region of 384 KiB that stays in
// the processor's cache. The idea of a small table for the last plies is
// Egaroucid's; the layout is ours. Positions with more empties hash over
// the whole table and may land in the region too; every entry carries its
// full position, so the sharing can cost a replaced entry, never a wrong
// answer.

const (
	// localTableMaxEmpties is the most empties of a position kept in the
	// region: FFO #40-#49 took 0.750 G nodes with the region up to 13
	// empties, 0.733 G up to 11 (sixth session).
	localTableMaxEmpties = 11
	// localTableEntries is the size of the region, in entries (24 bytes
	// each): 2^12 took 0.746 G nodes, 2^14 0.733 G, 2^16 0.725 G with
	// more time per probe.
	localTableEntries = 1 << 14
)

// solverTable returns the table in which the solver keeps a position with
// the given empties: the small region of the solver's table for positions
// near the end (e.endLocal), the whole table for the others. The region is
// made once with the engine and takes the table's generation here: made
// for each node as a value instead, its copy cost about 1% of an FFO
// solve's time (a 16-byte load of a struct just stored in 8-byte parts
// cannot be forwarded from the stores; thirtieth session).
func (e *Engine) solverTable(empties int) *table {
	if empties > localTableMaxEmpties {
		return e.end
	}
	e.endLocal.gen = e.end.gen
	return &e.endLocal
}
