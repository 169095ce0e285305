package natsclient

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base32"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strings"
)

// signWithCreds reads a .creds file (as nsc writes it: a user JWT and the
// user's nkey seed between dashed markers) and signs the server's nonce
// with the seed, as the NATS decentralised auth wants.
func signWithCreds(path, nonce string) (jwt, sig string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", "", fmt.Errorf("nats: reading credentials: %w", err)
	}
	defer wipe(data)
	jwt, err = credsBlock(data, "JWT")
	if err != nil {
		return "", "", fmt.Errorf("nats: credentials %s: %w", path, err)
	}
	seedText, err := credsBlock(data, "SEED")
	if err != nil {
		return "", "", fmt.Errorf("nats: credentials %s: %w", path, err)
	}
	seed, err := decodeSeed(seedText)
	if err != nil {
		return "", "", fmt.Errorf("nats: credentials %s: %w", path, err)
	}
	key := ed25519.NewKeyFromSeed(seed)
	wipe(seed)
	return jwt, base64.RawURLEncoding.EncodeToString(ed25519.Sign(key, []byte(nonce))), nil
}

// signWithSeedFile reads an nkey seed file (one "SU..." line, as nk
// writes it) and returns the user's public key and the nonce signed.
func signWithSeedFile(path, nonce string) (pub, sig string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", "", fmt.Errorf("nats: reading nkey seed: %w", err)
	}
	defer wipe(data)
	text := ""
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "S") {
			text = l
			break
		}
	}
	seed, err := decodeSeed(text)
	if err != nil {
		return "", "", fmt.Errorf("nats: nkey seed %s: %w", path, err)
	}
	key := ed25519.NewKeyFromSeed(seed)
	wipe(seed)
	return encodeUserKey(key.Public().(ed25519.PublicKey)), base64.RawURLEncoding.EncodeToString(ed25519.Sign(key, []byte(nonce))), nil
}

// encodeUserKey is a user's public nkey ("U..."): base32 of the prefix
// byte, the key and a CRC-16.
func encodeUserKey(pub ed25519.PublicKey) string {
	const userPrefix = 20 << 3 // 'U'
	raw := append([]byte{userPrefix}, pub...)
	sum := crc16(raw)
	raw = append(raw, byte(sum), byte(sum>>8))
	return base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(raw)
}

// credsBlock is the first line after the marker line that names what
// ("-----BEGIN NATS USER JWT-----", "-----BEGIN USER NKEY SEED-----").
func credsBlock(data []byte, what string) (string, error) {
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "---") && strings.Contains(l, "BEGIN") && strings.Contains(l, what) {
			for _, v := range lines[i+1:] {
				if v = strings.TrimSpace(v); v != "" {
					return v, nil
				}
			}
		}
	}
	return "", fmt.Errorf("no %s block (is it a .creds file?)", strings.ToLower(what))
}

// decodeSeed returns the ed25519 seed of an nkey seed ("SU..."): base32
// without padding of two prefix bytes, 32 seed bytes and a CRC-16.
func decodeSeed(text string) ([]byte, error) {
	raw, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(text)
	if err != nil || len(raw) != 36 {
		return nil, errors.New("the nkey seed is malformed")
	}
	body, sum := raw[:34], raw[34:]
	if crc16(body) != uint16(sum[0])|uint16(sum[1])<<8 {
		return nil, errors.New("the nkey seed's checksum is wrong")
	}
	const seedPrefix = 18 << 3 // 'S'
	if raw[0]&0xf8 != seedPrefix {
		return nil, errors.New("the nkey is not a seed")
	}
	return bytes.Clone(raw[2:34]), nil
}

// crc16 is CRC-16/XMODEM, the checksum of nkeys.
func crc16(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc ^= uint16(c) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

func wipe(b []byte) {
	for i := range b {
		b[i] = 0
	}
}
