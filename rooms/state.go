package rooms

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// maxNameRunes bounds a player's display name: long enough for real names, short enough
// for a seat label on a phone.
const maxNameRunes = 24

// seatState is a seat as the log defines it.
type seatState struct {
	Kind      SeatKind
	Name      string
	Level     int
	TokenHash string
	// IdentityHash is the seated browser's identity (hashed), if it sent one.
	IdentityHash string
}

func (s seatState) view() SeatView { return SeatView{Kind: s.Kind, Name: s.Name, Level: s.Level} }

// ply is one entry of the current game's record: a move or a forced pass.
type ply struct {
	side Side
	move string // "pass" for a pass
	eval *int
}

// roomState is a room's position: the replay of its event log. apply is the only way it
// changes; decide turns a command into the events to store and the state after them,
// without changing the state it is called on. A roomState is owned by one goroutine.
type roomState struct {
	meta        Meta
	version     int64 // seq of the last applied event
	gameNo      int   // 1 + the number of rematches
	seats       [2]seatState
	plies       []ply
	game        position
	result      *Result
	undoBy      Side // the side whose undo request waits for an answer, or ""
	drawBy      Side // the side whose draw offer waits, or ""
	rematchBy   Side // the side whose rematch offer waits, or ""
	next        string
	clk         clocks
	lastFlipped []string
	updated     time.Time
}

// newRoomState returns the state of a room with no events: both seats open, the game at
// its start.
func newRoomState(meta Meta) (*roomState, error) {
	g, err := newPosition(meta)
	if err != nil {
		return nil, err
	}
	s := &roomState{meta: meta, gameNo: max(1, meta.GameNo), game: g, updated: meta.CreatedAt,
		clk: newClocks(meta.Clock)}
	for i := range s.seats {
		s.seats[i].Kind = SeatOpen
	}
	return s, nil
}

// replayLog builds the state of a room from its whole log, and the log as clients see it.
func replayLog(meta Meta, events []Event) (*roomState, []PublicEvent, error) {
	s, err := newRoomState(meta)
	if err != nil {
		return nil, nil, err
	}
	pubs := make([]PublicEvent, 0, len(events))
	for _, e := range events {
		p, err := s.apply(e)
		if err != nil {
			return nil, nil, err
		}
		pubs = append(pubs, p)
	}
	return s, pubs, nil
}

// apply applies a stored event and returns it as clients see it. An error means the log
// is corrupt (an event the rules cannot follow) or, from decide, that the move is
// illegal; the state is then unusable.
func (s *roomState) apply(e Event) (PublicEvent, error) {
	if e.Seq != s.version+1 {
		return PublicEvent{}, fmt.Errorf("rooms: room %s: event seq %d after version %d", s.meta.ID, e.Seq, s.version)
	}
	pub := publicOf(e)
	switch e.Type {
	case EvSeat:
		s.seats[e.Seat.Index()] = seatState{Kind: e.Kind, Name: e.Name, Level: e.Level, TokenHash: e.TokenHash,
			IdentityHash: e.IdentityHash}
		s.undoBy, s.drawBy = "", ""
		if len(s.plies) == 0 && s.result == nil {
			// Before the first move the game's time runs only with both seats taken.
			full := s.seats[0].Kind != SeatOpen && s.seats[1].Kind != SeatOpen
			if full && !s.clk.started {
				s.clk.turnStart = e.Time
			}
			s.clk.started = full
		}
	case EvSwitch:
		s.seats[0], s.seats[1] = s.seats[1], s.seats[0]
		s.undoBy = ""
	case EvMove:
		flipped, err := s.game.play(e.Move)
		if err != nil {
			return pub, fmt.Errorf("rooms: room %s: event %d: %w", s.meta.ID, e.Seq, err)
		}
		s.plies = append(s.plies, ply{side: e.Seat, move: e.Move, eval: e.Eval})
		s.lastFlipped, pub.Flipped = flipped, flipped
		s.result = s.game.result()
		s.undoBy = ""
		if s.drawBy != e.Seat {
			s.drawBy = "" // the opponent's move declines an offer
		}
		s.clk.started = true
		s.clk.chargeMove(s.meta.Clock, e.Seat, e.Time)
		pub.Board = s.game.board()
	case EvPass:
		if err := s.game.pass(); err != nil {
			return pub, fmt.Errorf("rooms: room %s: event %d: %w", s.meta.ID, e.Seq, err)
		}
		s.plies = append(s.plies, ply{side: e.Seat, move: "pass"})
		s.lastFlipped = nil
		s.clk.turnStart = e.Time
		pub.Board = s.game.board()
	case EvUndoRequest:
		s.undoBy = e.Seat
	case EvUndoDecline:
		s.undoBy = ""
	case EvUndo:
		if e.Plies < 1 || e.Plies > len(s.plies) {
			return pub, fmt.Errorf("rooms: room %s: event %d: undo %d of %d plies", s.meta.ID, e.Seq, e.Plies, len(s.plies))
		}
		if err := s.rebuild(s.plies[:len(s.plies)-e.Plies]); err != nil {
			return pub, err
		}
		s.undoBy, s.drawBy = "", ""
		// No time is given back; the side now to move runs from the undo, and a side with
		// no move left in the game has its first-move limit again.
		s.clk.turnStart = e.Time
		s.clk.moved = [2]bool{}
		for _, p := range s.plies {
			if p.move != "pass" {
				s.clk.moved[p.side.Index()] = true
			}
		}
		pub.Board = s.game.board()
	case EvResign:
		s.end(e.Seat.Other(), "resign")
	case EvRematch:
		if e.Next != "" {
			s.next, s.rematchBy = e.Next, ""
			break
		}
		// An old log's rematch: a new game in this room with the same seats.
		if err := s.rebuild(nil); err != nil {
			return pub, err
		}
		s.gameNo++
		s.undoBy, s.drawBy, s.rematchBy = "", "", ""
		s.clk = newClocks(s.meta.Clock)
		s.clk.started = s.seats[0].Kind != SeatOpen && s.seats[1].Kind != SeatOpen
		s.clk.turnStart = e.Time
		pub.Board = s.game.board()
	case EvRematchOffer:
		s.rematchBy = e.Seat
	case EvRematchDecline:
		s.rematchBy = ""
	case EvDrawOffer:
		s.drawBy = e.Seat
	case EvDrawDecline:
		s.drawBy = ""
	case EvDraw:
		s.end("", "agreement")
	case EvFlag:
		s.clk.remaining[e.Seat.Index()] = 0
		s.end(e.Seat.Other(), "timeout")
	case EvAbort:
		s.end("", "aborted")
	case EvClaim:
		switch e.Claim {
		case ClaimWin:
			s.end(e.Seat, "abandoned")
		case ClaimDraw:
			s.end("", "abandoned")
		case ClaimAbort:
			s.end("", "aborted")
		default:
			return pub, fmt.Errorf("rooms: room %s: event %d: unknown claim %q", s.meta.ID, e.Seq, e.Claim)
		}
	default:
		return pub, fmt.Errorf("rooms: room %s: event %d: unknown type %q", s.meta.ID, e.Seq, e.Type)
	}
	s.version = e.Seq
	s.updated = e.Time
	return pub, nil
}

// end ends the current game with winner ("" for none) for reason.
func (s *roomState) end(winner Side, reason string) {
	n := s.game.counts()
	s.result = &Result{Winner: winner, Reason: reason, Black: n.Black, White: n.White}
	s.undoBy, s.drawBy = "", ""
}

// rebuild replays the current game from its start through plies.
func (s *roomState) rebuild(plies []ply) error {
	g, err := newPosition(s.meta)
	if err != nil {
		return err
	}
	var flipped []string
	for _, p := range plies {
		if p.move == "pass" {
			err, flipped = g.pass(), nil
		} else {
			flipped, err = g.play(p.move)
		}
		if err != nil {
			return fmt.Errorf("rooms: room %s: rebuild: %w", s.meta.ID, err)
		}
	}
	s.game, s.plies, s.lastFlipped = g, plies, flipped
	s.result = g.result()
	return nil
}

// clone returns an independent copy of the state.
func (s *roomState) clone() *roomState {
	c := *s
	c.plies = append([]ply(nil), s.plies...)
	c.game = s.game.clone()
	return &c
}

// decision is what a command comes to: the events to store (seqs and times set), the
// same events as clients see them, and the state after them all. A decision of more than
// one event (a move with a forced pass after it, or a declined request before it) keeps the
// view after each event but the last (its viewer count left for the room to fill in); the
// last one's is next's.
type decision struct {
	events  []Event
	public  []PublicEvent
	between []StateView
	next    *roomState
}

// viewAfter is the state as clients see it after the decision's i-th event.
func (d decision) viewAfter(i, viewers int) StateView {
	if i < len(d.between) {
		v := d.between[i]
		v.Viewers = viewers
		return v
	}
	return d.next.view(viewers)
}

// decide validates cmd against the state and works out what it does: the events that
// carry it out and the state after them, each move played once, on a copy. s itself is
// unchanged; errors are *Error values.
func (s *roomState) decide(cmd Command, now time.Time) (decision, error) {
	evs, err := s.commandEvents(cmd, now)
	if err != nil {
		return decision{}, err
	}
	d := decision{next: s.clone(), public: make([]PublicEvent, 0, len(evs))}
	for i := 0; i < len(evs); i++ {
		evs[i].Seq, evs[i].Time = s.version+1+int64(i), now
		pub, err := d.next.apply(evs[i])
		if err != nil {
			var rule *Error
			if errors.As(err, &rule) {
				return decision{}, rule // an illegal move, in the rules' words
			}
			return decision{}, errorf(CodeInternal, "%v", err)
		}
		d.public = append(d.public, pub)
		if evs[i].Type == EvMove && d.next.game.mustPass() {
			// The opponent has no reply: the pass is part of the move.
			evs = append(evs, Event{Type: EvPass, Seat: d.next.game.toMove()})
		}
		if i < len(evs)-1 {
			d.between = append(d.between, d.next.view(0))
		}
	}
	d.events = evs
	return d, nil
}

// commandEvents checks cmd against the state and returns the events that carry it out,
// without their seqs and times. A move's legality is the rules' to judge, in decide.
func (s *roomState) commandEvents(cmd Command, now time.Time) ([]Event, error) {
	if cmd.At != nil && *cmd.At != s.version {
		return nil, errorf(CodeStale, "the room is at version %d, not %d", s.version, *cmd.At)
	}
	me := cmd.actor
	switch cmd.Kind {
	case CmdSit:
		return s.decideSit(cmd)
	case CmdSetSeat:
		return s.decideSetSeat(cmd)
	case cmdTime:
		return s.decideTime(now)
	}
	if me == "" {
		return nil, errorf(CodeNotSeated, "you do not hold a seat in this room")
	}
	switch cmd.Kind {
	case CmdMove:
		return s.decideMove(cmd, now)
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
		return s.decideRematch(cmd, true)
	case CmdRematchReply:
		return s.decideRematch(cmd, cmd.Accept)
	case CmdDraw:
		return s.decideDraw(me, false, true)
	case CmdDrawReply:
		return s.decideDraw(me, true, cmd.Accept)
	case CmdAbort:
		if s.result != nil {
			return nil, errorf(CodeGameOver, "the game is over")
		}
		if s.clk.moved[0] && s.clk.moved[1] {
			return nil, errorf(CodeTooEarly, "both sides have moved: the game can no longer be aborted (resign or offer a draw)")
		}
		return []Event{{Type: EvAbort, Seat: me}}, nil
	case CmdClaim:
		return s.decideClaim(cmd)
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

func (s *roomState) decideMove(cmd Command, now time.Time) ([]Event, error) {
	me := cmd.actor
	if s.result != nil {
		return nil, errorf(CodeGameOver, "the game is over")
	}
	if due, first, ok := s.clk.deadline(s.meta.Clock, s.game.toMove()); ok && !now.Before(due) && s.game.toMove() == me {
		if first {
			return nil, errorf(CodeTimeOut, "the time for your first move ran out: the game is aborted")
		}
		return nil, errorf(CodeTimeOut, "your time ran out")
	}
	if turn := s.game.toMove(); turn != me {
		return nil, errorf(CodeNotYourTurn, "it is %s's turn", turn)
	}
	if seat := s.seats[me.Index()]; (seat.Kind == SeatBot) != cmd.bot {
		return nil, errorf(CodeNotYourTurn, "a bot plays %s", me)
	}
	// A move answers what waits for an answer: both players see the request declined.
	var evs []Event
	if s.undoBy != "" {
		evs = append(evs, Event{Type: EvUndoDecline, Seat: me})
	}
	if s.drawBy == me.Other() {
		evs = append(evs, Event{Type: EvDrawDecline, Seat: me})
	}
	return append(evs, Event{Type: EvMove, Seat: me, Move: cmd.Move, Eval: cmd.eval}), nil
}

// pliesToUndo is how many plies take the game back to just before side's last move, or 0
// if side has not moved in this game.
func (s *roomState) pliesToUndo(side Side) int {
	for i := len(s.plies) - 1; i >= 0; i-- {
		if p := s.plies[i]; p.side == side && p.move != "pass" {
			return len(s.plies) - i
		}
	}
	return 0
}

func (s *roomState) decideUndo(me Side) ([]Event, error) {
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

func (s *roomState) decideUndoReply(me Side, accept bool) ([]Event, error) {
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

// decideTime stores what a passed deadline means: the flag of the side to move, or an
// abort if that side never moved. It is an error when no deadline has passed (another
// event came first).
func (s *roomState) decideTime(now time.Time) ([]Event, error) {
	if s.result != nil {
		return nil, errorf(CodeGameOver, "the game is over")
	}
	side := s.game.toMove()
	if !s.meta.Clock.timed() {
		if due, ok := s.deadline(); !ok || now.Before(due) {
			return nil, errorf(CodeTooEarly, "the game is not abandoned")
		}
		return []Event{{Type: EvAbort}}, nil // nobody has played for a day
	}
	due, first, ok := s.clk.deadline(s.meta.Clock, side)
	if !ok || now.Before(due) {
		return nil, errorf(CodeTooEarly, "no clock has run out")
	}
	if first {
		return []Event{{Type: EvAbort, Seat: side}}, nil
	}
	return []Event{{Type: EvFlag, Seat: side}}, nil
}

// decideDraw offers a draw (or accepts the opponent's offer), or, as a reply, accepts or
// declines the opponent's offer.
func (s *roomState) decideDraw(me Side, reply, yes bool) ([]Event, error) {
	if s.result != nil {
		return nil, errorf(CodeGameOver, "the game is over")
	}
	if s.seats[me.Other().Index()].Kind != SeatHuman {
		return nil, errorf(CodeForbidden, "draws are agreed between people; a bot plays on")
	}
	switch {
	case s.drawBy == me.Other() && yes:
		return []Event{{Type: EvDraw, Seat: me}}, nil
	case s.drawBy == me.Other():
		return []Event{{Type: EvDrawDecline, Seat: me}}, nil
	case reply || s.drawBy == me:
		if s.drawBy == me && !reply {
			return nil, errorf(CodeBadRequest, "your draw offer is waiting for an answer")
		}
		return nil, errorf(CodeNoRequest, "there is no draw offer for you to answer")
	}
	return []Event{{Type: EvDrawOffer, Seat: me}}, nil
}

// decideRematch asks for (or agrees to) the next game when yes, else declines the
// opponent's offer. Against a bot or an open seat the next game starts at once; it is
// room cmd.nextRoom, which the room creates before it stores the event.
func (s *roomState) decideRematch(cmd Command, yes bool) ([]Event, error) {
	me := cmd.actor
	if s.result == nil {
		return nil, errorf(CodeGameNotOver, "the game is still on")
	}
	if s.next != "" {
		return nil, errorf(CodeGameOver, "the rematch has started already: room %s", s.next)
	}
	offered := s.rematchBy == me.Other()
	if !yes {
		if !offered {
			return nil, errorf(CodeNoRequest, "there is no rematch offer for you to answer")
		}
		return []Event{{Type: EvRematchDecline, Seat: me}}, nil
	}
	if cmd.Kind == CmdRematchReply && !offered {
		return nil, errorf(CodeNoRequest, "there is no rematch offer for you to answer")
	}
	if s.seats[me.Other().Index()].Kind == SeatHuman && !offered {
		if s.rematchBy == me {
			return nil, errorf(CodeBadRequest, "your rematch offer is waiting for an answer")
		}
		return []Event{{Type: EvRematchOffer, Seat: me}}, nil
	}
	if cmd.nextRoom == "" {
		return nil, errorf(CodeInternal, "a rematch needs the next room's id")
	}
	return []Event{{Type: EvRematch, By: me, Next: cmd.nextRoom}}, nil
}

// rematchRoom is the next game's room after this one: the same game and clock, the
// players in the other colours with the same seat tokens, its first events the seats.
func (s *roomState) rematchRoom(id string, now time.Time) (Meta, []Event) {
	meta := s.meta
	meta.ID, meta.CreatedAt, meta.Prev, meta.GameNo = id, now, s.meta.ID, s.gameNo+1
	var events []Event
	for i, seat := range [2]seatState{s.seats[1], s.seats[0]} {
		if seat.Kind == SeatOpen {
			continue
		}
		events = append(events, Event{Seq: int64(len(events) + 1), Type: EvSeat, Time: now, Seat: sides[i],
			Kind: seat.Kind, Name: seat.Name, Level: seat.Level, TokenHash: seat.TokenHash,
			IdentityHash: seat.IdentityHash})
	}
	return meta, events
}

// decideClaim ends the game for the player who stayed, once the opponent has been gone
// for the grace period (the room resolves how long, since presence is not in the log).
func (s *roomState) decideClaim(cmd Command) ([]Event, error) {
	me := cmd.actor
	if s.result != nil {
		return nil, errorf(CodeGameOver, "the game is over")
	}
	if s.seats[me.Other().Index()].Kind != SeatHuman {
		return nil, errorf(CodeForbidden, "only a game against a person who left can be claimed")
	}
	if cmd.goneFor == 0 {
		return nil, errorf(CodeForbidden, "your opponent is connected")
	}
	if cmd.goneFor < cmd.grace {
		return nil, errorf(CodeTooEarly, "your opponent left %s ago; you can claim after %s", cmd.goneFor.Round(time.Second), cmd.grace)
	}
	switch cmd.Claim {
	case ClaimWin, ClaimDraw:
	case ClaimAbort:
		if s.movesEach() >= 2 {
			return nil, errorf(CodeTooEarly, "a game with two moves each or more can be claimed as a win or a draw, not aborted")
		}
	default:
		return nil, errorf(CodeBadRequest, "a claim is win, draw or abort, not %q", cmd.Claim)
	}
	return []Event{{Type: EvClaim, Seat: me, Claim: cmd.Claim}}, nil
}

// movesEach is the fewest moves either side has made in the current game.
func (s *roomState) movesEach() int {
	var n [2]int
	for _, p := range s.plies {
		if p.move != "pass" {
			n[p.side.Index()]++
		}
	}
	return min(n[0], n[1])
}

func (s *roomState) decideSit(cmd Command) ([]Event, error) {
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
	return []Event{{Type: EvSeat, Seat: cmd.Seat, Kind: SeatHuman, Name: name, TokenHash: cmd.tokenHash,
		IdentityHash: cmd.identityHash}}, nil
}

func (s *roomState) decideSetSeat(cmd Command) ([]Event, error) {
	if cmd.actor == "" {
		return nil, errorf(CodeNotSeated, "only a seated player can change the seats")
	}
	if _, err := ParseSide(string(cmd.Seat)); err != nil {
		return nil, err
	}
	if target := s.seats[cmd.Seat.Index()]; target.Kind == SeatHuman && cmd.Seat != cmd.actor {
		// The seat of a player who left may go to a bot once the grace period has passed.
		if cmd.Occupant != SeatBot || cmd.goneFor == 0 || cmd.goneFor < cmd.grace {
			return nil, errorf(CodeForbidden, "the %s seat belongs to another player", cmd.Seat)
		}
	}
	switch cmd.Occupant {
	case SeatBot:
		if err := checkLevel(s.meta.Game, cmd.Level); err != nil {
			return nil, err
		}
		return []Event{{Type: EvSeat, Seat: cmd.Seat, Kind: SeatBot, Level: cmd.Level}}, nil
	case SeatOpen:
		return []Event{{Type: EvSeat, Seat: cmd.Seat, Kind: SeatOpen}}, nil
	}
	return nil, errorf(CodeBadRequest, "a seat can be set to bot or open, not %q", cmd.Occupant)
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

// cleanChat trims a chat line and checks it: 1..maxChatRunes characters, valid UTF-8, no
// control characters (a line is one line). It is shown as text by the client, never as
// HTML, so markup needs no escaping here.
func cleanChat(text string) (string, error) {
	text = strings.TrimSpace(text)
	if !utf8.ValidString(text) {
		return "", errorf(CodeBadRequest, "the chat line is not valid UTF-8")
	}
	n := utf8.RuneCountInString(text)
	if n == 0 || n > maxChatRunes {
		return "", errorf(CodeBadRequest, "a chat line is 1 to %d characters, not %d", maxChatRunes, n)
	}
	for _, r := range text {
		if unicode.IsControl(r) {
			return "", errorf(CodeBadRequest, "a chat line has a control character")
		}
	}
	return text, nil
}

// sideOfToken is the seat the token holds, or "".
func (s *roomState) sideOfToken(token string) Side {
	for i, seat := range s.seats {
		if seat.Kind == SeatHuman && tokenMatches(token, seat.TokenHash) {
			return sides[i]
		}
	}
	return ""
}

// untimedAbandon is how long an untimed game may go without any event before it ends by
// itself, with no result: long enough for a game played over a day, short enough that
// games everybody left do not stay open for the week a room is kept.
const untimedAbandon = 24 * time.Hour

// deadline is when the running clock's time runs out, if one runs; in an untimed game
// under way, when it counts as abandoned.
func (s *roomState) deadline() (time.Time, bool) {
	if s.result != nil || !s.clk.started {
		return time.Time{}, false
	}
	if !s.meta.Clock.timed() {
		return s.updated.Add(untimedAbandon), true
	}
	due, _, ok := s.clk.deadline(s.meta.Clock, s.game.toMove())
	return due, ok
}

// status is where the current game stands.
func (s *roomState) status() Status {
	switch {
	case s.result != nil:
		return StatusFinished
	case len(s.plies) == 0 && (s.seats[0].Kind == SeatOpen || s.seats[1].Kind == SeatOpen):
		return StatusWaiting
	}
	return StatusPlaying
}

// botToMove reports whether the side to move is a bot with a game to play, and its level.
func (s *roomState) botToMove() (Side, int, bool) {
	if s.result != nil || s.game.over() {
		return "", 0, false
	}
	side := s.game.toMove()
	seat := s.seats[side.Index()]
	return side, seat.Level, seat.Kind == SeatBot
}

// summary is the room's lobby line.
func (s *roomState) summary() Summary {
	_, _, bot := s.botToMove()
	sum := Summary{
		ID: s.meta.ID, Game: s.meta.Game, Size: s.meta.Size, Rule: s.meta.Rule,
		Status: s.status(), Seats: s.seatViews(), Counts: s.game.counts(), Plies: len(s.plies),
		BotToMove: bot, CreatedAt: s.meta.CreatedAt, UpdatedAt: s.updated, Result: s.result,
		Clock: s.meta.Clock,
	}
	if due, ok := s.deadline(); ok {
		sum.Deadline = &due
	}
	return sum
}

func (s *roomState) seatViews() map[Side]SeatView {
	return map[Side]SeatView{Black: s.seats[0].view(), White: s.seats[1].view()}
}
