package rooms

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// maxNameRunes bounds a player's display name: long enough for real names, short enough
// for a seat label on a phone.
const maxNameRunes = 24

// CommandKind names what a client (or a bot) asks a room to do.
type CommandKind string

// The commands a room accepts.
const (
	CmdMove      CommandKind = "move"
	CmdUndo      CommandKind = "undo"
	CmdUndoReply CommandKind = "undo_reply"
	CmdResign    CommandKind = "resign"
	CmdRematch   CommandKind = "rematch"
	CmdSit       CommandKind = "sit"
	CmdStand     CommandKind = "stand"
	CmdSetSeat   CommandKind = "set_seat"
	CmdSwitch    CommandKind = "switch"
)

// Command is a request to change a room. Which fields matter depends on Kind (see
// docs/protocol.md); the room resolves Actor from the client's seat token.
type Command struct {
	Kind   CommandKind
	Token  string   // the client's seat token, if any
	Move   string   // CmdMove
	At     *int64   // CmdMove, CmdUndo: the version the client saw (optional)
	Seat   Side     // CmdSit, CmdSetSeat
	Name   string   // CmdSit
	Seat2  SeatKind // CmdSetSeat: bot or open
	Level  int      // CmdSetSeat with a bot
	Accept bool     // CmdUndoReply

	actor     Side   // resolved by the room from Token (or the bot's side)
	bot       bool   // the move comes from the room's bot runner
	eval      *int   // the bot's score for its move, black's view
	tokenHash string // CmdSit: the hash of the new token
}

// seatState is a seat as the log defines it.
type seatState struct {
	Kind      SeatKind
	Name      string
	Level     int
	TokenHash string
}

func (s seatState) view() SeatView { return SeatView{Kind: s.Kind, Name: s.Name, Level: s.Level} }

// ply is one entry of the current game's record: a move or a forced pass.
type ply struct {
	side Side
	move string // "pass" for a pass
	eval *int
}

// State is a room's position: the replay of its event log. Apply is the only way it
// changes; Decide turns a command into the events to store, without changing anything.
// A State is owned by one goroutine.
type State struct {
	Meta        Meta
	Version     int64 // seq of the last applied event
	GameNo      int   // 1 + the number of rematches
	seats       [2]seatState
	plies       []ply
	game        Game
	result      *Result
	undoBy      Side // the side whose undo request waits for an answer, or ""
	lastFlipped []string
	updated     time.Time
}

// NewState returns the state of a room with no events: both seats open, the game at
// its start.
func NewState(meta Meta) (*State, error) {
	g, err := newGame(meta)
	if err != nil {
		return nil, err
	}
	s := &State{Meta: meta, GameNo: 1, game: g, updated: meta.CreatedAt}
	for i := range s.seats {
		s.seats[i].Kind = SeatOpen
	}
	return s, nil
}

// Replay builds the state of a room from its whole log.
func Replay(meta Meta, events []Event) (*State, error) {
	s, err := NewState(meta)
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		if _, err := s.Apply(e); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Apply applies a stored event and returns it as clients see it. An error means the log
// is corrupt (an event the rules cannot follow); the state is then unusable.
func (s *State) Apply(e Event) (PublicEvent, error) {
	if e.Seq != s.Version+1 {
		return PublicEvent{}, fmt.Errorf("rooms: room %s: event seq %d after version %d", s.Meta.ID, e.Seq, s.Version)
	}
	pub := PublicEvent{Seq: e.Seq, Type: e.Type, Time: e.Time, Seat: e.Seat, By: e.By,
		Kind: e.Kind, Name: e.Name, Level: e.Level, Move: e.Move, Plies: e.Plies, Eval: e.Eval}
	switch e.Type {
	case EvSeat:
		s.seats[e.Seat.Index()] = seatState{Kind: e.Kind, Name: e.Name, Level: e.Level, TokenHash: e.TokenHash}
		s.undoBy = ""
	case EvSwitch:
		s.seats[0], s.seats[1] = s.seats[1], s.seats[0]
		s.undoBy = ""
	case EvMove:
		flipped, err := s.game.Play(e.Move)
		if err != nil {
			return pub, fmt.Errorf("rooms: room %s: event %d: %w", s.Meta.ID, e.Seq, err)
		}
		s.plies = append(s.plies, ply{side: e.Seat, move: e.Move, eval: e.Eval})
		s.lastFlipped, pub.Flipped = flipped, flipped
		s.result = s.game.Result()
		s.undoBy = ""
		pub.Board = s.game.Board()
	case EvPass:
		if err := s.game.Pass(); err != nil {
			return pub, fmt.Errorf("rooms: room %s: event %d: %w", s.Meta.ID, e.Seq, err)
		}
		s.plies = append(s.plies, ply{side: e.Seat, move: "pass"})
		s.lastFlipped = nil
		pub.Board = s.game.Board()
	case EvUndoRequest:
		s.undoBy = e.Seat
	case EvUndoDecline:
		s.undoBy = ""
	case EvUndo:
		if e.Plies < 1 || e.Plies > len(s.plies) {
			return pub, fmt.Errorf("rooms: room %s: event %d: undo %d of %d plies", s.Meta.ID, e.Seq, e.Plies, len(s.plies))
		}
		if err := s.rebuild(s.plies[:len(s.plies)-e.Plies]); err != nil {
			return pub, err
		}
		s.undoBy = ""
		pub.Board = s.game.Board()
	case EvResign:
		n := s.game.Counts()
		s.result = &Result{Winner: e.Seat.Other(), Reason: "resign", Black: n.Black, White: n.White}
		s.undoBy = ""
	case EvRematch:
		if err := s.rebuild(nil); err != nil {
			return pub, err
		}
		s.GameNo++
		s.undoBy = ""
		pub.Board = s.game.Board()
	default:
		return pub, fmt.Errorf("rooms: room %s: event %d: unknown type %q", s.Meta.ID, e.Seq, e.Type)
	}
	s.Version = e.Seq
	s.updated = e.Time
	return pub, nil
}

// rebuild replays the current game from its start through plies.
func (s *State) rebuild(plies []ply) error {
	g, err := newGame(s.Meta)
	if err != nil {
		return err
	}
	var flipped []string
	for _, p := range plies {
		if p.move == "pass" {
			err, flipped = g.Pass(), nil
		} else {
			flipped, err = g.Play(p.move)
		}
		if err != nil {
			return fmt.Errorf("rooms: room %s: rebuild: %w", s.Meta.ID, err)
		}
	}
	s.game, s.plies, s.lastFlipped = g, plies, flipped
	s.result = g.Result()
	return nil
}

// clone returns an independent copy of the state.
func (s *State) clone() *State {
	c := *s
	c.plies = append([]ply(nil), s.plies...)
	c.game = s.game.Clone()
	return &c
}

// Decide validates cmd against the state and returns the events that carry it out, with
// their sequence numbers and times set. It changes nothing; errors are *Error values.
func (s *State) Decide(cmd Command, now time.Time) ([]Event, error) {
	evs, err := s.decide(cmd)
	if err != nil {
		return nil, err
	}
	for i := range evs {
		evs[i].Seq = s.Version + 1 + int64(i)
		evs[i].Time = now
	}
	return evs, nil
}

func (s *State) decide(cmd Command) ([]Event, error) {
	if cmd.At != nil && *cmd.At != s.Version {
		return nil, errorf(CodeStale, "the room is at version %d, not %d", s.Version, *cmd.At)
	}
	me := cmd.actor
	switch cmd.Kind {
	case CmdSit:
		return s.decideSit(cmd)
	case CmdSetSeat:
		return s.decideSetSeat(cmd)
	}
	if me == "" {
		return nil, errorf(CodeNotSeated, "you do not hold a seat in this room")
	}
	switch cmd.Kind {
	case CmdMove:
		return s.decideMove(cmd)
	case CmdUndo:
		return s.decideUndo(me)
	case CmdUndoReply:
		return s.decideUndoReply(me, cmd.Accept)
	case CmdResign:
		if s.result != nil {
			return nil, errorf(CodeGameOver, "the game is over")
		}
		return []Event{{Type: EvResign, Seat: me}}, nil
	case CmdRematch:
		if s.result == nil {
			return nil, errorf(CodeGameNotOver, "the game is still on")
		}
		return []Event{{Type: EvRematch, By: me}}, nil
	case CmdStand:
		return []Event{{Type: EvSeat, Seat: me, Kind: SeatOpen}}, nil
	case CmdSwitch:
		if s.seats[me.Other().Index()].Kind == SeatHuman {
			return nil, errorf(CodeForbidden, "you can switch sides only against a bot or an open seat")
		}
		return []Event{{Type: EvSwitch, By: me}}, nil
	}
	return nil, errorf(CodeBadRequest, "unknown command %q", cmd.Kind)
}

func (s *State) decideMove(cmd Command) ([]Event, error) {
	me := cmd.actor
	if s.result != nil {
		return nil, errorf(CodeGameOver, "the game is over")
	}
	if turn := s.game.ToMove(); turn != me {
		return nil, errorf(CodeNotYourTurn, "it is %s's turn", turn)
	}
	if seat := s.seats[me.Index()]; (seat.Kind == SeatBot) != cmd.bot {
		return nil, errorf(CodeNotYourTurn, "a bot plays %s", me)
	}
	trial := s.game.Clone()
	if _, err := trial.Play(cmd.Move); err != nil {
		return nil, err
	}
	evs := []Event{{Type: EvMove, Seat: me, Move: cmd.Move, Eval: cmd.eval}}
	if trial.MustPass() {
		evs = append(evs, Event{Type: EvPass, Seat: trial.ToMove()})
	}
	return evs, nil
}

// pliesToUndo is how many plies take the game back to just before side's last move, or 0
// if side has not moved in this game.
func (s *State) pliesToUndo(side Side) int {
	for i := len(s.plies) - 1; i >= 0; i-- {
		if p := s.plies[i]; p.side == side && p.move != "pass" {
			return len(s.plies) - i
		}
	}
	return 0
}

func (s *State) decideUndo(me Side) ([]Event, error) {
	if s.result != nil && s.result.Reason == "resign" {
		return nil, errorf(CodeGameOver, "the game was resigned")
	}
	n := s.pliesToUndo(me)
	if n == 0 {
		return nil, errorf(CodeNothingToUndo, "you have no move to take back")
	}
	if s.seats[me.Other().Index()].Kind != SeatHuman {
		return []Event{{Type: EvUndo, Plies: n, By: me}}, nil
	}
	if s.undoBy == me {
		return nil, errorf(CodeBadRequest, "your request to take back is waiting for an answer")
	}
	return []Event{{Type: EvUndoRequest, Seat: me}}, nil
}

func (s *State) decideUndoReply(me Side, accept bool) ([]Event, error) {
	if s.undoBy == "" || s.undoBy == me {
		return nil, errorf(CodeNoRequest, "there is no request to take back for you to answer")
	}
	if !accept {
		return []Event{{Type: EvUndoDecline, Seat: me}}, nil
	}
	n := s.pliesToUndo(s.undoBy)
	if n == 0 {
		return nil, errorf(CodeNothingToUndo, "%s has no move to take back", s.undoBy)
	}
	return []Event{{Type: EvUndo, Plies: n, By: s.undoBy}}, nil
}

func (s *State) decideSit(cmd Command) ([]Event, error) {
	if _, err := ParseSide(string(cmd.Seat)); err != nil {
		return nil, err
	}
	if cmd.actor != "" {
		return nil, errorf(CodeAlreadySeated, "you already hold the %s seat", cmd.actor)
	}
	if s.seats[cmd.Seat.Index()].Kind != SeatOpen {
		return nil, errorf(CodeSeatTaken, "the %s seat is taken", cmd.Seat)
	}
	name, err := CleanName(cmd.Name)
	if err != nil {
		return nil, err
	}
	return []Event{{Type: EvSeat, Seat: cmd.Seat, Kind: SeatHuman, Name: name, TokenHash: cmd.tokenHash}}, nil
}

func (s *State) decideSetSeat(cmd Command) ([]Event, error) {
	if cmd.actor == "" {
		return nil, errorf(CodeNotSeated, "only a seated player can change the seats")
	}
	if _, err := ParseSide(string(cmd.Seat)); err != nil {
		return nil, err
	}
	if target := s.seats[cmd.Seat.Index()]; target.Kind == SeatHuman && cmd.Seat != cmd.actor {
		return nil, errorf(CodeForbidden, "the %s seat belongs to another player", cmd.Seat)
	}
	switch cmd.Seat2 {
	case SeatBot:
		if err := checkLevel(s.Meta.Game, cmd.Level); err != nil {
			return nil, err
		}
		return []Event{{Type: EvSeat, Seat: cmd.Seat, Kind: SeatBot, Level: cmd.Level}}, nil
	case SeatOpen:
		return []Event{{Type: EvSeat, Seat: cmd.Seat, Kind: SeatOpen}}, nil
	}
	return nil, errorf(CodeBadRequest, "a seat can be set to bot or open, not %q", cmd.Seat2)
}

// CleanName trims a display name and checks it: 1..24 characters, printable, no control
// characters. Names are shown as text by the client, never as HTML.
func CleanName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if !utf8.ValidString(name) {
		return "", errorf(CodeBadRequest, "name is not valid UTF-8")
	}
	n := utf8.RuneCountInString(name)
	if n == 0 || n > maxNameRunes {
		return "", errorf(CodeBadRequest, "name must be 1 to %d characters", maxNameRunes)
	}
	for _, r := range name {
		if unicode.IsControl(r) || !unicode.IsPrint(r) && r != ' ' {
			return "", errorf(CodeBadRequest, "name has a character that cannot be shown")
		}
	}
	return name, nil
}

// sideOfToken is the seat the token holds, or "".
func (s *State) sideOfToken(token string) Side {
	for i, seat := range s.seats {
		if seat.Kind == SeatHuman && tokenMatches(token, seat.TokenHash) {
			return sides[i]
		}
	}
	return ""
}

// Status is where the current game stands.
func (s *State) Status() Status {
	switch {
	case s.result != nil:
		return StatusFinished
	case len(s.plies) == 0 && (s.seats[0].Kind == SeatOpen || s.seats[1].Kind == SeatOpen):
		return StatusWaiting
	}
	return StatusPlaying
}

// BotToMove reports whether the side to move is a bot with a game to play, and its level.
func (s *State) BotToMove() (Side, int, bool) {
	if s.result != nil || s.game.Over() {
		return "", 0, false
	}
	side := s.game.ToMove()
	seat := s.seats[side.Index()]
	return side, seat.Level, seat.Kind == SeatBot
}

// Summary is the room's lobby line.
func (s *State) Summary() Summary {
	_, _, bot := s.BotToMove()
	return Summary{
		ID: s.Meta.ID, Game: s.Meta.Game, Size: s.Meta.Size, Rule: s.Meta.Rule,
		Status: s.Status(), Seats: s.seatViews(), Counts: s.game.Counts(), Plies: len(s.plies),
		BotToMove: bot, CreatedAt: s.Meta.CreatedAt, UpdatedAt: s.updated, Result: s.result,
	}
}

func (s *State) seatViews() map[Side]SeatView {
	return map[Side]SeatView{Black: s.seats[0].view(), White: s.seats[1].view()}
}
