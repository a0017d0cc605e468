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

// Identity keys are 32 or more random bytes in base64url; longer keys are allowed, up to a
// bound that keeps them out of the way of anything else.
const (
	minIdentityLen = 32
	maxIdentityLen = 128
)

// HashIdentity checks a browser's identity key and returns the hash that stands for it in
// the Store (docs/protocol.md, Identity and my games).
func HashIdentity(key string) (string, error) {
	if len(key) < minIdentityLen || len(key) > maxIdentityLen {
		return "", errorf(CodeBadRequest, "an identity key is %d to %d characters, not %d", minIdentityLen, maxIdentityLen, len(key))
	}
	for _, c := range key {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return "", errorf(CodeBadRequest, "an identity key is base64url characters (A-Z, a-z, 0-9, - and _)")
		}
	}
	return hashToken(key), nil
}

// newChatID names a chat line: 8 random bytes in base64url, enough to tell lines apart.
func newChatID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
