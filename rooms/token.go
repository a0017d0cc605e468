package rooms

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
)

// tokenBytes is the size of a seat token: 128 random bits, beyond any guessing.
const tokenBytes = 16

// newToken returns a fresh random seat token (URL-safe base64) and the hash to store.
func newToken() (token, hash string) {
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails: crypto/rand panics rather than return short
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

// hashToken is how a token is stored: only the SHA-256, so a leaked log or store dump does
// not let anyone act for a seat.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// tokenMatches reports whether token hashes to hash, in constant time.
func tokenMatches(token, hash string) bool {
	if token == "" || hash == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(hashToken(token)), []byte(hash)) == 1
}

// newRoomID returns a random room id: 10 characters of lowercase base32 (50 bits), short
// enough to read aloud, long enough that links cannot be guessed by enumeration.
func newRoomID() string {
	const alphabet = "abcdefghijkmnpqrstuvwxyz23456789" // no l, o, 0, 1: unambiguous
	b := make([]byte, 10)
	rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
