// Package rooms is the authoritative room state machine of the hall: rooms as
// append-only event logs, the Store that keeps them and the Broker that connects the
// server nodes serving them (each with a memory and a Redis implementation), and the bot
// pool that plays the engines' moves.
//
// A room is its Meta (game, board size, rule) and its log of Events. Its state is the
// replay of the log: nothing else is stored, so every node that reads the log computes
// the same position. A command goes through one path:
//
//	Service.Do            service.go   finds the room's goroutine (loading the room)
//	liveRoom.execute      room.go      resolves the seat token, then
//	roomState.decide      state.go     checks the command and plays it on a copy
//	Store.Append          store*.go    stores the events if the version still matches
//	liveRoom.store        room.go      takes the new state, tells the watchers
//	Broker.Publish        broker*.go   tells the other nodes, which apply the same events
//
// Each game is one record (gameKind, game.go) in one file (game_reversi.go,
// game_gomoku.go) that adapts its engine package: rules, notation, bot search and the
// analysis graph's scale. docs/design.md maps the files; docs/protocol.md is the wire
// protocol that the views and messages (view.go) implement.
package rooms
