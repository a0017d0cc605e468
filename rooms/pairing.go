package rooms

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// PairRequest is what a player asks quick pairing for: a game, its options and clock, and
// who they are.
type PairRequest struct {
	Game     string
	Size     int
	Rule     string
	Clock    TimeControl
	Name     string
	Identity string // the browser's identity key, optional
}

// Paired is quick pairing's answer: the new room and the seat taken in it, or, when
// nobody came, the bot level to offer instead (Room empty).
type Paired struct {
	Room     string
	Seat     Side
	Token    string
	BotLevel int
}

// Check validates a pairing request (its game, options, clock, name and identity) before it
// is queued. Errors are *Error.
func (r PairRequest) Check() error {
	_, _, err := r.check()
	return err
}

// check validates the request and returns the room it asks for and its ticket.
func (r PairRequest) check() (Meta, pairTicket, error) {
	meta := Meta{Game: r.Game, Size: r.Size, Rule: r.Rule, Clock: r.Clock}
	if err := normalizeMeta(&meta); err != nil {
		return Meta{}, pairTicket{}, err
	}
	if err := meta.Clock.normalize(); err != nil {
		return Meta{}, pairTicket{}, err
	}
	name, err := CleanName(r.Name)
	if err != nil {
		return Meta{}, pairTicket{}, err
	}
	me := pairTicket{ID: newChatID() + newChatID(), Name: name}
	if r.Identity != "" {
		if me.IdentityHash, err = HashIdentity(r.Identity); err != nil {
			return Meta{}, pairTicket{}, err
		}
	}
	return meta, me, nil
}

// pairTicket is a player's place in a pairing queue: an id, and who they are, so that the
// player who finds it can seat them.
type pairTicket struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	IdentityHash string `json:"identity,omitempty"`
}

// pairNews is what the player who found a ticket tells its owner.
type pairNews struct {
	Room  string `json:"room"`
	Seat  Side   `json:"seat"`
	Token string `json:"token"`
}

// pairChannel is the Broker topic a waiting ticket's owner listens on.
func pairChannel(ticketID string) string { return "pair-" + ticketID }

// Pair seats the player with the next who asks the same, on any node: it waits up to
// Config.PairWait (or until ctx is done: the player left the queue) for someone, then answers with
// a bot level to offer instead. Errors are *Error or the Store's.
func (s *Service) Pair(ctx context.Context, req PairRequest) (Paired, error) {
	meta, me, err := req.check()
	if err != nil {
		return Paired{}, err
	}
	queue := fmt.Sprintf("%s/%d/%s/%s", meta.Game, meta.Size, meta.Rule, meta.Clock)

	// Listen before queueing, so that news sent the instant after is not missed.
	news := make(chan []byte, 1)
	unsub, err := s.broker.Subscribe(pairChannel(me.ID), func(msg []byte) {
		select {
		case news <- msg:
		default:
		}
	})
	if err != nil {
		return Paired{}, err
	}
	defer unsub()
	bctx, cancel := backendContext(ctx)
	theirs, err := s.store.Pair(bctx, queue, string(mustJSON(me)), s.cfg.PairWait)
	cancel()
	if err != nil {
		return Paired{}, err
	}
	if theirs != "" {
		var them pairTicket
		if err := json.Unmarshal([]byte(theirs), &them); err != nil {
			return Paired{}, errorf(CodeInternal, "a pairing ticket that cannot be read: %v", err)
		}
		return s.startPaired(ctx, meta, me, them)
	}
	select {
	case msg := <-news:
		var n pairNews
		if err := json.Unmarshal(msg, &n); err != nil {
			return Paired{}, errorf(CodeInternal, "pairing news that cannot be read: %v", err)
		}
		return Paired{Room: n.Room, Seat: n.Seat, Token: n.Token}, nil
	case <-time.After(s.cfg.PairWait):
	case <-ctx.Done():
	}
	// Leave the queue; news may still have come in the meantime.
	uctx, ucancel := backendContext(context.Background())
	s.store.Unpair(uctx, queue, string(mustJSON(me)))
	ucancel()
	select {
	case msg := <-news:
		var n pairNews
		if json.Unmarshal(msg, &n) == nil {
			return Paired{Room: n.Room, Seat: n.Seat, Token: n.Token}, nil
		}
	default:
	}
	if err := ctx.Err(); err != nil {
		return Paired{}, errorf(CodeBusy, "you left the queue")
	}
	kind, _ := kindOf(meta.Game)
	return Paired{BotLevel: (kind.info.MaxLevel + 1) / 2}, nil
}

// startPaired makes the room for two players the queue brought together, colours drawn at
// random, and tells the other one.
func (s *Service) startPaired(ctx context.Context, meta Meta, me, them pairTicket) (Paired, error) {
	meta.ID, meta.CreatedAt = newRoomID(), time.Now().UTC().Truncate(time.Millisecond)
	mySide := Black
	if n, _ := rand.Int(rand.Reader, big.NewInt(2)); n.Int64() == 1 {
		mySide = White
	}
	myToken, myHash := newToken()
	theirToken, theirHash := newToken()
	seats := map[Side]Event{
		mySide:         {Seat: mySide, Name: me.Name, TokenHash: myHash, IdentityHash: me.IdentityHash},
		mySide.Other(): {Seat: mySide.Other(), Name: them.Name, TokenHash: theirHash, IdentityHash: them.IdentityHash},
	}
	var events []Event
	for _, side := range sides {
		e := seats[side]
		e.Seq, e.Type, e.Time, e.Kind = int64(len(events)+1), EvSeat, meta.CreatedAt, SeatHuman
		events = append(events, e)
	}
	st, _, err := replayLog(meta, events)
	if err != nil {
		return Paired{}, err
	}
	bctx, cancel := backendContext(ctx)
	defer cancel()
	if err := s.store.Create(bctx, meta, events, st.summary()); err != nil {
		return Paired{}, err
	}
	s.cfg.Metrics.roomsCreated.Inc()
	for side, e := range seats {
		if e.IdentityHash != "" {
			if err := s.store.RecordPlayer(bctx, e.IdentityHash, meta.ID, side, meta.CreatedAt); err != nil {
				s.node.warn("record player", "room", meta.ID, "err", err)
			}
		}
	}
	news := mustJSON(pairNews{Room: meta.ID, Seat: mySide.Other(), Token: theirToken})
	if err := s.broker.Publish(bctx, pairChannel(them.ID), news); err != nil && !errors.Is(err, context.Canceled) {
		return Paired{}, err
	}
	s.wake(meta.ID) // its clock runs: load it so that the first-move limit is kept
	return Paired{Room: meta.ID, Seat: mySide, Token: myToken}, nil
}
