package cli

import (
	"testing"

	"github.com/tidwall/gjson"
)

// responseText reads the output of a shell call in each CLI's shape.
func TestResponseTextReadsEveryShape(t *testing.T) {
	for _, c := range []struct{ response, want string }{
		{`{"stdout":"a","stderr":"cat: .env: Permission denied","interrupted":false}`, "a\ncat: .env: Permission denied\nfalse"},
		{`{"resultType":"success","textResultForLlm":"x\n<shellId: 0 completed with exit code 1>","success":false,"error":"Exit code 1\nx"}`,
			"success\nx\n<shellId: 0 completed with exit code 1>\nfalse\nExit code 1\nx"},
		{`"rm: cannot remove 'k': Read-only file system"`, "rm: cannot remove 'k': Read-only file system"},
		{`{"content":[{"text":"deep"}]}`, "deep"},
		{``, ""},
	} {
		if got := responseText(gjson.Parse(c.response)); got != c.want {
			t.Errorf("responseText(%s) = %q, want %q", c.response, got, c.want)
		}
	}
}
