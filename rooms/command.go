package rooms

import "time"

// CommandKind names what a client (or a bot) asks a room to do. Its values are the
// protocol's message types for these commands (docs/protocol.md): this list is the one
// place they are spelled.
type CommandKind string

// The commands a room accepts.
const (
	CmdMove      CommandKind = "move"       // play a move
	CmdUndo      CommandKind = "undo"       // take back (against a bot) or ask to (against a person)
	CmdUndoReply CommandKind = "undo_reply" // answer the opponent's request to take back
	CmdResign    CommandKind = "resign"     // give the game up
	CmdRematch   CommandKind = "rematch"    // a new game in the room once this one is over
	CmdSit       CommandKind = "sit"        // take an open seat
	CmdStand     CommandKind = "stand"      // leave one's seat
	CmdSetSeat   CommandKind = "set_seat"   // put a bot in a seat, change its level, or open it
	CmdSwitch    CommandKind = "switch"     // swap sides with the bot or the open seat

	CmdDraw         CommandKind = "draw"          // offer a draw, or accept the opponent's offer
	CmdDrawReply    CommandKind = "draw_reply"    // answer the opponent's draw offer
	CmdRematchReply CommandKind = "rematch_reply" // answer the opponent's rematch offer
	CmdAbort        CommandKind = "abort"         // end the game with no result before both sides moved
	CmdClaim        CommandKind = "claim"         // claim the game after the opponent left

	// cmdTime is the room's own: its clock's deadline passed. Clients cannot send it.
	cmdTime CommandKind = "time"
)

// commandKinds lists every command a client may send.
var commandKinds = []CommandKind{CmdMove, CmdUndo, CmdUndoReply, CmdResign, CmdRematch,
	CmdSit, CmdStand, CmdSetSeat, CmdSwitch, CmdDraw, CmdDrawReply, CmdRematchReply, CmdAbort, CmdClaim}

// ParseCommandKind returns the command a protocol message type names, or false if the
// type is not a room command (join, leave and ping are the hub's own).
func ParseCommandKind(msgType string) (CommandKind, bool) {
	for _, k := range commandKinds {
		if string(k) == msgType {
			return k, true
		}
	}
	return "", false
}

// Command is a request to change a room. Which fields matter depends on Kind (see
// docs/protocol.md); the room resolves the actor from the client's seat token.
type Command struct {
	Kind     CommandKind
	Token    string   // the client's seat token, if any
	Move     string   // CmdMove
	At       *int64   // CmdMove, CmdUndo: the version the client saw (optional)
	Seat     Side     // CmdSit, CmdSetSeat: the seat meant
	Name     string   // CmdSit: the player's display name
	Occupant SeatKind // CmdSetSeat: who the seat gets, SeatBot or SeatOpen
	Level    int      // CmdSetSeat with a bot
	Accept   bool     // CmdUndoReply, CmdDrawReply, CmdRematchReply
	Claim    string   // CmdClaim: ClaimWin, ClaimDraw or ClaimAbort
	// Identity is the browser's identity key (CmdSit, optional): its hash is kept with the
	// seat and lists the room among the identity's games.
	Identity string
	// Watcher is the connection sending the command, so that the room knows which seat
	// it holds after a sit or a stand (for presence). May be nil.
	Watcher Subscriber

	actor        Side   // resolved by the room from Token (or the bot's side)
	bot          bool   // the move comes from the room's bot runner
	eval         *int   // the bot's score for its move, black's view
	tokenHash    string // CmdSit: the hash of the new token
	identityHash string // CmdSit: the hash of Identity
	// goneFor is, resolved by the room, how long the actor's opponent (a person) has been
	// disconnected, and grace the time after which claims are allowed; 0 when present.
	goneFor, grace time.Duration
	// nextRoom is the id a rematch's next game would get.
	nextRoom string
}
