package shellcmd

import "testing"

// Printing a secret-named variable, or every variable, is found; using one
// without printing it, printing other variables, and a dump counted or
// filtered by a harmless pattern are not.
func TestSecretPrints(t *testing.T) {
	tests := []struct {
		src  string
		want string // the variable, "*" for a dump, "" for none
	}{
		{`echo $OPENAI_API_KEY`, "OPENAI_API_KEY"},
		{`echo "key: ${GITHUB_TOKEN:-none}"`, "GITHUB_TOKEN"},
		{`printf '%s' "$AWS_SECRET_ACCESS_KEY"`, "AWS_SECRET_ACCESS_KEY"},
		{`sh -c 'echo $AWS_SECRET_ACCESS_KEY'`, "AWS_SECRET_ACCESS_KEY"},
		{`eval 'echo $GITHUB_TOKEN'`, "GITHUB_TOKEN"},
		{`sudo printf %s $DB_PASSWORD`, "DB_PASSWORD"},
		{`echo "'$GITHUB_TOKEN'"`, "GITHUB_TOKEN"},
		{`echo $NPM_TOKEN | base64`, "NPM_TOKEN"},
		{`echo $NPM_TOKEN > token.txt`, "NPM_TOKEN"},
		{`printenv GITHUB_TOKEN`, "GITHUB_TOKEN"},
		{`printenv`, "*"},
		{`env`, "*"},
		{`/usr/bin/env`, "*"},
		{`env -0`, "*"},
		{`set`, "*"},
		{`export -p`, "*"},
		{`export`, "*"},
		{`declare -x`, "*"},
		{`env | grep -i key`, "*"},
		{`env | grep -v PATH`, "*"},
		{`printenv > out.txt`, "*"},
		{`env | sort`, "*"},
		{`printenv > out.txt | wc -c`, "*"},
		{`echo $NPM_TOKEN >> t.txt | wc -c`, "NPM_TOKEN"},
		// Near misses.
		{`echo '$OPENAI_API_KEY'`, ""},
		{`echo $HOME $PATH`, ""},
		{`printenv HOME`, ""},
		{`echo $NPM_TOKEN | wc -c`, ""},
		{`echo "$GITHUB_TOKEN" | gh auth login --with-token`, ""},
		{`curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com`, ""},
		{`[ -n "$OPENAI_API_KEY" ] && echo set`, ""},
		{`env | grep -i python`, ""},
		{`env | wc -l`, ""},
		{`env 2>/dev/null | wc -l`, ""},
		{`env FOO=1 git status`, ""},
		{`env NODE_ENV=test npm test`, ""},
		{`set -euo pipefail`, ""},
		{`export FOO=bar`, ""},
		{`declare -f`, ""},
		{`K=abc; echo $K`, ""},
		{`echo $MONKEY_BUSINESS`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got := ""
			if ps := SecretPrints(mustParse(t, tt.src, testOpts)); len(ps) > 0 {
				got = ps[0].Var
				if got == "" {
					got = "*"
				}
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
