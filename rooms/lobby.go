package rooms

import (
	"context"
	"time"
)

// Lobby is the hall's lists as the lobby page shows them (docs/protocol.md, lobby): rooms
// waiting for a player, games under way with somebody in them, and finished games.
type Lobby struct {
	Open     []Summary `json:"open"`
	Live     []Summary `json:"live"`
	Finished []Summary `json:"finished"`
}

// What the lobby shows.
const (
	// lobbyEach is the most rooms each list holds: a screenful.
	lobbyEach = 30
	// openFresh is how long a room waiting for a player is listed with nobody in it:
	// long enough for a friend to follow the link, short enough that rooms made and
	// forgotten leave the list within minutes.
	openFresh = 10 * time.Minute
	// lobbyScan is how many recent rooms the lists are drawn from.
	lobbyScan = 100
)

// Lobby returns the lobby's lists, leaving out the rooms nobody is in: a waiting room
// older than openFresh with nobody present, a game under way with no player connected
// and no bot to move.
func (s *Service) Lobby(ctx context.Context) (Lobby, error) {
	sums, err := s.List(ctx, lobbyScan)
	if err != nil {
		return Lobby{}, err
	}
	return sortLobby(sums, time.Now()), nil
}

// sortLobby puts recent rooms (most recent first) into the lobby's lists as of now.
func sortLobby(sums []Summary, now time.Time) Lobby {
	l := Lobby{Open: []Summary{}, Live: []Summary{}, Finished: []Summary{}}
	for _, sum := range sums {
		switch sum.Status {
		case StatusWaiting:
			if (now.Sub(sum.CreatedAt) < openFresh || sum.Viewers > 0) && len(l.Open) < lobbyEach {
				l.Open = append(l.Open, sum)
			}
		case StatusPlaying:
			if (len(sum.Present) > 0 || sum.BotToMove) && len(l.Live) < lobbyEach {
				l.Live = append(l.Live, sum)
			}
		case StatusFinished:
			if len(l.Finished) < lobbyEach {
				l.Finished = append(l.Finished, sum)
			}
		}
	}
	return l
}
