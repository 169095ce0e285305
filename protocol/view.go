package protocol

import (
	"unsafe"

	"github.com/tidwall/gjson"
)

// View parses the JSON in b without copying it, as gjson.ParseBytes would:
// an event's tool_response can be tens of MiB, and a copy per reader would
// double or triple the hook's memory. The results point into b, so b must
// not change while they are in use; event bytes never do.
func View(b []byte) gjson.Result {
	return gjson.Parse(unsafe.String(unsafe.SliceData(b), len(b)))
}
