package rooms

import "encoding/json"

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
	UndoRequest *undoRequestView  `json:"undoRequest"`
	Viewers     int               `json:"viewers"`
}

type undoRequestView struct {
	By Side `json:"by"`
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
		v.UndoRequest = &undoRequestView{By: s.undoBy}
	}
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
	Type  string `json:"type"`
	Room  string `json:"room"`
	Count int    `json:"count"`
}

// mustJSON encodes a message built from our own types, which cannot fail to encode.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("rooms: encoding a message: " + err.Error())
	}
	return b
}
