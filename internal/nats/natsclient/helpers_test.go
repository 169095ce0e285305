package natsclient_test

import "encoding/base64"

func decodeSig(s string) ([]byte, error) { return base64.RawURLEncoding.DecodeString(s) }
