package rooms

import (
	"encoding/json"
	"time"
)

// StateView is the room state of docs/protocol.md, sent with every joined and event
// message.
type StateView struct {
	ID          string            `json:"id"`
	Game        string            `json:"game"`
	Size        int               `json:"size"`
	Rule        string            `json:"rule"`
	Version     int64             `json:"version"`
	GameNo      int               `json:"gameNo"`
	Status      Status            `json:"status"`
	Board       string            `json:"board"`
	ToMove      *Side             `json:"toMove"`
	Legal       []string          `json:"legal"`
	Forbidden   []string          `json:"forbidden,omitempty"`
	LastMove    *string           `json:"lastMove"`
	Flipped     []string          `json:"flipped"`
	Counts      Counts            `json:"counts"`
	Moves       []string          `json:"moves"`
	Seats       map[Side]SeatView `json:"seats"`
	Result      *Result           `json:"result"`
	WinLine     []string          `json:"winLine"`
	UndoRequest *offerView        `json:"undoRequest"`
	DrawOffer   *offerView        `json:"drawOffer"`
	Rematch     *offerView        `json:"rematchOffer"`
	Clock       *ClockView        `json:"clock"`
	// Presence, Gone and ClaimAt are the room's knowledge of who is connected, not the
	// log's: the live room fills them in (docs/protocol.md, Presence).
	Presence   map[Side]bool      `json:"presence"`
	Gone       map[Side]time.Time `json:"gone,omitempty"`
	ClaimAt    *time.Time         `json:"claimAt,omitempty"`
	Next       *string            `json:"next"`
	Prev       *string            `json:"prev"`
	Viewers    int                `json:"viewers"`
	Spectators int                `json:"spectators"`
}

// offerView is a request or offer waiting for the opponent's answer.
type offerView struct {
	By Side `json:"by"`
}

// ClockView is a room's clocks as clients see them: both sides' time in milliseconds as
// of AsOf, the running side and its deadline.
type ClockView struct {
	TimeControl
	Black     int64      `json:"black"`
	White     int64      `json:"white"`
	Running   *Side      `json:"running"`
	AsOf      time.Time  `json:"asOf"`
	Deadline  *time.Time `json:"deadline"`
	FirstMove bool       `json:"firstMove"`
}

// clockView is the clocks as of now (at least the state's own time); nil when untimed.
func (s *roomState) clockView(now time.Time) *ClockView {
	tc := s.meta.Clock
	if !tc.timed() {
		return nil
	}
	if now.Before(s.updated) {
		now = s.updated
	}
	v := &ClockView{TimeControl: tc, AsOf: now}
	toMove := s.game.toMove()
	due, first, running := s.clk.deadline(tc, toMove)
	running = running && s.result == nil
	if running {
		v.Running, v.Deadline, v.FirstMove = &toMove, &due, first
	}
	v.Black = s.clk.left(tc, Black, toMove, now, running).Milliseconds()
	v.White = s.clk.left(tc, White, toMove, now, running).Milliseconds()
	return v
}

// view is the state as clients see it, with the given number of viewers.
func (s *roomState) view(viewers int) StateView {
	v := StateView{
		ID: s.meta.ID, Game: s.meta.Game, Size: s.meta.Size, Rule: s.meta.Rule,
		Version: s.version, GameNo: s.gameNo, Status: s.status(), Board: s.game.board(),
		Legal: []string{}, Flipped: s.lastFlipped, Counts: s.game.counts(),
		Moves: make([]string, len(s.plies)), Seats: s.seatViews(), Result: s.result,
		WinLine: s.game.winLine(), Viewers: viewers,
	}
	if v.Flipped == nil {
		v.Flipped = []string{}
	}
	for i, p := range s.plies {
		v.Moves[i] = p.move
	}
	if len(s.plies) > 0 {
		last := s.plies[len(s.plies)-1].move
		v.LastMove = &last
	}
	if s.result == nil {
		turn := s.game.toMove()
		v.ToMove = &turn
		if l := s.game.legal(); l != nil {
			v.Legal = l
		}
		v.Forbidden = s.game.forbidden()
	}
	if s.undoBy != "" {
		v.UndoRequest = &offerView{By: s.undoBy}
	}
	if s.drawBy != "" {
		v.DrawOffer = &offerView{By: s.drawBy}
	}
	if s.rematchBy != "" {
		v.Rematch = &offerView{By: s.rematchBy}
	}
	v.Clock = s.clockView(s.updated)
	if s.next != "" {
		v.Next = &s.next
	}
	if s.meta.Prev != "" {
		v.Prev = &s.meta.Prev
	}
	v.Presence = map[Side]bool{Black: false, White: false}
	return v
}

// The server-to-client messages that rooms produce (docs/protocol.md). They are encoded
// once per broadcast and the same bytes go to every watcher.

type joinedMsg struct {
	Type   string        `json:"type"`
	ID     *int64        `json:"id,omitempty"`
	Room   string        `json:"room"`
	Seat   *Side         `json:"seat"`
	Full   bool          `json:"full"`
	State  StateView     `json:"state"`
	Events []PublicEvent `json:"events"`
	Chat   []ChatLine    `json:"chat"`
}

// chatMsg is a chat line said in a room.
type chatMsg struct {
	Type string   `json:"type"`
	Room string   `json:"room"`
	Line ChatLine `json:"line"`
}

type eventMsg struct {
	Type  string      `json:"type"`
	Room  string      `json:"room"`
	Event PublicEvent `json:"event"`
	State StateView   `json:"state"`
}

// thinkingMsg is a bot's search progress as sent to watchers.
type thinkingMsg struct {
	Type  string   `json:"type"`
	Room  string   `json:"room"`
	Seat  Side     `json:"seat"`
	Depth int      `json:"depth"`
	Best  string   `json:"best"`
	Score int      `json:"score"`
	Nodes uint64   `json:"nodes"`
	NPS   uint64   `json:"nps"`
	PV    []string `json:"pv"`
	Exact bool     `json:"exact"`
}

type viewersMsg struct {
	Type       string `json:"type"`
	Room       string `json:"room"`
	Count      int    `json:"count"`
	Spectators int    `json:"spectators"`
}

// presenceMsg tells watchers that a seated player left or came back.
type presenceMsg struct {
	Type    string     `json:"type"`
	Room    string     `json:"room"`
	Seat    Side       `json:"seat"`
	Present bool       `json:"present"`
	Since   *time.Time `json:"since,omitempty"`
	ClaimAt *time.Time `json:"claimAt,omitempty"`
}

// mustJSON encodes a message built from our own types, which cannot fail to encode.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("rooms: encoding a message: " + err.Error())
	}
	return b
}

// statusMsg tells watchers whether the node can reach its Store: while it cannot, moves
// and every other change are refused with `unavailable`.
type statusMsg struct {
	Type    string `json:"type"`
	Storage string `json:"storage"` // "ok" or "unavailable"
	Message string `json:"message"`
}

// resyncMsg tells a room's watchers that the room was unloaded because this node's copy
// could no longer be trusted (the Store lost events the node had applied, as after a
// Redis failover without WAIT, or it holds a log the rules cannot follow): they join
// again without since and replace what they had.
type resyncMsg struct {
	Type    string `json:"type"` // "resync"
	Room    string `json:"room"`
	Message string `json:"message"`
}

// storageMsg is the status message for a Store that is reachable (ok) or not.
func storageMsg(ok bool) []byte {
	if ok {
		return mustJSON(statusMsg{Type: "status", Storage: "ok", Message: "the game store is back: moves are stored again"})
	}
	return mustJSON(statusMsg{Type: "status", Storage: "unavailable",
		Message: "the game store cannot be reached: moves are paused, and nothing stored is lost"})
}
