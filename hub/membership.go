package hub

// membership is a room a connection has joined, with the seat token it acts with there
// ("" for a spectator).
type membership struct {
	room  string
	token string
}

// memberships are a connection's rooms. A tab watches one room, rarely a few (at most
// maxRoomsPerConn), so a short slice beats a map: it costs nothing until the first join
// and a few dozen bytes after, where a map costs hundreds per connection.
type memberships []membership

func (ms memberships) token(room string) (string, bool) {
	for _, m := range ms {
		if m.room == room {
			return m.token, true
		}
	}
	return "", false
}

func (ms *memberships) set(room, token string) {
	for i := range *ms {
		if (*ms)[i].room == room {
			(*ms)[i].token = token
			return
		}
	}
	*ms = append(*ms, membership{room: room, token: token})
}

func (ms *memberships) remove(room string) {
	for i, m := range *ms {
		if m.room == room {
			*ms = append((*ms)[:i], (*ms)[i+1:]...)
			return
		}
	}
}
