package redact

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// Fake credentials in the shapes the rules know. None is real.
const (
	ghToken     = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	ghoToken    = "gho_16C7e42F292c6912E7710c838347Ae178B4a"
	ghPAT       = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"
	anthropic   = "sk-ant-api03-AbCdEf0123456789-_xyz"
	openAI      = "sk-proj-0123456789abcdefABCDEF"
	slackToken  = "xoxb-123456789012-abcdefABCDEF"
	awsKeyID    = "AKIAIOSFODNN7EXAMPLE"
	awsTempID   = "ASIAY34FZKBOKMUTVV7A"
	googleKey   = "AIzaSyA-1234567890abcdefghijklmnopqrstu"
	jwt         = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	rsaKeyBlock = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4Y\nZm9vYmFy\n-----END RSA PRIVATE KEY-----"

	gitlabPAT        = "glpat-Ab1Cd2Ef3Gh4Ij5Kl6Mn"
	npmToken         = "npm_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0UvWxYz"
	pypiToken        = "pypi-AgEIcHlwaS5vcmcCJDEyMzQ1Njc4LTEyMzQtMTIzNC0xMjM0LTEyMzQ1Njc4OTAxMgACJXsicGVybWlzc2lvbnMiOiAidXNlciJ9AAAGIA"
	stripeKey        = "sk_live_51H8Ab1Cd2Ef3Gh4Ij5Kl6Mn"
	stripeRestricted = "rk_live_51H8Ab1Cd2Ef3Gh4Ij5Kl6Mn"
	slackWebhook     = "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"
	discordWebhook   = "https://discord.com/api/webhooks/123456789012345678/Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv-_wXyZ"
)

var stringTests = []struct {
	name, in, want string
}{
	// Ordinary text is never touched.
	{"echo", "echo hello", "echo hello"},
	{"git push", "git push origin main", "git push origin main"},
	{"ls", "ls -la", "ls -la"},
	{"max_tokens", "max_tokens=100", "max_tokens=100"},
	{"prose token count", "the token count is 5", "the token count is 5"},
	{"path with tokens", "cat /home/u/tokens/file.txt", "cat /home/u/tokens/file.txt"},
	{"password file name", "password_policy.md", "password_policy.md"},
	{"empty", "", ""},

	// Rule 1: private key blocks.
	{"private key block", "cat <<EOF\n" + rsaKeyBlock + "\nEOF", "cat <<EOF\n" + Mask + "\nEOF"},
	{"openssh key block", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE\n-----END OPENSSH PRIVATE KEY-----\n", Mask + "\n"},
	{"pgp key block", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----", Mask},
	{"key block without END", "x\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBYr", "x\n" + Mask},
	{"two key blocks", rsaKeyBlock + "\nmid\n" + rsaKeyBlock, Mask + "\nmid\n" + Mask},
	{"public key is not secret", "-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----"},
	{"private key in prose", "ssh-keygen writes the private key to ~/.ssh/id_ed25519", "ssh-keygen writes the private key to ~/.ssh/id_ed25519"},

	// Rule 2: assignments, headers, flags.
	{"env assignment", "GITHUB_TOKEN=abc gh pr list", "GITHUB_TOKEN=" + Mask + " gh pr list"},
	{"export quoted", `export API_KEY="x y"; make`, `export API_KEY="` + Mask + `"; make`},
	{"single quoted", `DB_PASSWORD='p a s s' ./run`, `DB_PASSWORD='` + Mask + `' ./run`},
	{"yaml colon", "user: bob\npassword: hunter2\nport: 5432", "user: bob\npassword: " + Mask + "\nport: 5432"},
	{"yaml value with spaces", "passphrase: correct horse battery staple", "passphrase: " + Mask},
	{"flag equals", "mysql --password=x db", "mysql --password=" + Mask + " db"},
	{"flag space", "tool --password x --verbose", "tool --password " + Mask + " --verbose"},
	{"token flag", "gh --token x", "gh --token " + Mask},
	{"quoted flag value", `cli --api-key "a b" run`, `cli --api-key "` + Mask + `" run`},
	{"authorization header", `curl -H "Authorization: Bearer x" https://api.example.com`, `curl -H "Authorization: ` + Mask + `" https://api.example.com`},
	{"x-api-key header", `curl -H 'X-Api-Key: abc123' url`, `curl -H 'X-Api-Key: ` + Mask + `' url`},
	{"cookie header", `curl -H "Cookie: sid=1; theme=dark" u`, `curl -H "Cookie: ` + Mask + `" u`},
	{"docker env with spaces", `docker run -e "DB_PASSWORD=a b" img`, `docker run -e "DB_PASSWORD=` + Mask + `" img`},
	{"query parameter", "curl 'https://h/x?client_secret=abc&grant_type=y'", "curl 'https://h/x?client_secret=" + Mask + "&grant_type=y'"},
	{"dotted property", "spring.datasource.password=s3 java -jar app.jar", "spring.datasource.password=" + Mask + " java -jar app.jar"},
	{"json in text", `{"password": "hunter2", "user": "bob"}`, `{"password": "` + Mask + `", "user": "bob"}`},
	{"json number in text", `{"password": 12345, "user": "bob"}`, `{"password": ` + Mask + `, "user": "bob"}`},
	{"escaped json in shell", `curl -d "{\"password\": \"s3cr3t\", \"n\": 1}"`, `curl -d "{\"password\": \"` + Mask + `\", \"n\": 1}"`},
	{"toml spaced", `secret = "abc"`, `secret = "` + Mask + `"`},
	{"go short assignment", `token := "abc"`, `token := "` + Mask + `"`},
	{"session id", "SESSION_ID=f00 ./x", "SESSION_ID=" + Mask + " ./x"},
	{"aws secret access key", "AWS_SECRET_ACCESS_KEY=wJalr ./x", "AWS_SECRET_ACCESS_KEY=" + Mask + " ./x"},
	{"unterminated quote", `API_KEY="abc def`, `API_KEY="` + Mask},
	{"near: max tokens flag", "llm --max-tokens 4096 --tokenizer bpe", "llm --max-tokens 4096 --tokenizer bpe"},
	{"near: token_count", "token_count=5 input_tokens=7", "token_count=5 input_tokens=7"},
	{"near: password file flag", "--password-file /run/secrets/db", "--password-file /run/secrets/db"},
	{"near: comparison", `if [ "$token" == "" ]; then`, `if [ "$token" == "" ]; then`},
	{"near: flag without value", "gh auth status --show-token --hostname x", "gh auth status --show-token --hostname x"},
	{"near: flag fed by a redirect", "gh auth login --with-token < token.txt", "gh auth login --with-token < token.txt"},
	{"near: volume path", "docker run -v ~/.token:/root/.token img", "docker run -v ~/.token:/root/.token img"},
	{"near: empty value", "password=", "password="},
	{"near: prose word", "rotate the password weekly", "rotate the password weekly"},
	{"near: secret word in commit", `git commit -m "fix: secret rotation"`, `git commit -m "fix: secret rotation"`},

	// Rule 3: HTTP auth schemes.
	{"bearer", "Bearer abcdef1234", "Bearer " + Mask},
	{"basic", "Authorization header is Basic dXNlcjpwYXNz", "Authorization header is Basic " + Mask},
	{"token scheme", "use token 0123456789abcdef now", "use token " + Mask + " now"},
	{"bearer lower case", "bearer AbCdEfGhIjKl", "bearer " + Mask},
	{"near: bearer short", "Bearer abc12", "Bearer abc12"},
	{"near: basic prose", "Basic authentication is weak", "Basic authentication is weak"},
	{"near: token prose", "token validation failed", "token validation failed"},
	{"near: bearer prose", "the bearer of bad news", "the bearer of bad news"},
	{"near: basic path", "Basic /usr/share/doc/basic", "Basic /usr/share/doc/basic"},

	// Rule 4: well-known token shapes.
	{"github classic", "git remote add o https://github.com x " + ghToken, "git remote add o https://github.com x " + Mask},
	{"github oauth", "echo " + ghoToken, "echo " + Mask},
	{"github fine-grained", "echo " + ghPAT + " | gh auth login --with-token", "echo " + Mask + " | gh auth login --with-token"},
	{"anthropic", "claude --key-from-env; echo " + anthropic, "claude --key-from-env; echo " + Mask},
	{"openai", `python -c "openai.api = '` + openAI + `'"`, `python -c "openai.api = '` + Mask + `'"`},
	{"slack", "post " + slackToken + " hi", "post " + Mask + " hi"},
	{"aws key id", "aws configure set aws_access_key_id " + awsKeyID, "aws configure set aws_access_key_id " + Mask},
	{"aws temporary id", "id=" + awsTempID, "id=" + Mask},
	{"google", "curl maps?key=" + googleKey, "curl maps?key=" + Mask},
	{"jwt", "echo " + jwt + " | jq", "echo " + Mask + " | jq"},
	{"near: ghp short", "ghp_short", "ghp_short"},
	{"near: gh inside a word", "weighs_abcdefghijklmnopqrstuvwxyz0123", "weighs_abcdefghijklmnopqrstuvwxyz0123"},
	{"near: sk inside a word", "task-abcdefghijklmnopqrstuvwxyz", "task-abcdefghijklmnopqrstuvwxyz"},
	{"near: sk short", "sk-learn", "sk-learn"},
	{"near: slack short", "xoxb-12", "xoxb-12"},
	{"near: aws short", "AKIA1234", "AKIA1234"},
	{"near: aws lower case", "akiaiosfodnn7example", "akiaiosfodnn7example"},
	{"near: google short", "AIzaShort", "AIzaShort"},
	{"near: jwt header only", "eyJhbGciOiJIUzI1NiJ9", "eyJhbGciOiJIUzI1NiJ9"},

	// Rule 5: URL credentials.
	{"https credentials", "git clone https://user:pa55w0rd@github.com/o/r", "git clone https://user:" + Mask + "@github.com/o/r"},
	{"postgres", "psql postgres://app:s3cret@db:5432/app", "psql postgres://app:" + Mask + "@db:5432/app"},
	{"at sign in password", "https://u:p@ss@host/x", "https://u:" + Mask + "@host/x"},
	{"empty user", "redis://:hunter2@cache:6379", "redis://:" + Mask + "@cache:6379"},
	{"near: user only", "git clone ssh://git@github.com/o/r", "git clone ssh://git@github.com/o/r"},
	{"near: port", "curl https://example.com:8080/path", "curl https://example.com:8080/path"},
	{"near: email after url", "see https://x.org:443 or mail a@b.com", "see https://x.org:443 or mail a@b.com"},

	// Rule 4, more shapes: GitLab, npm, PyPI, Stripe; Slack and Discord
	// webhooks keep their host and lose their secret path.
	{"gitlab pat", "echo " + gitlabPAT, "echo " + Mask},
	{"npm token", "echo " + npmToken + " > .token", "echo " + Mask + " > .token"},
	{"pypi token", "twine upload -u __token__ -p " + pypiToken + " dist/*", "twine upload -u __token__ -p " + Mask + " dist/*"},
	{"stripe live secret key", "curl -u " + stripeKey + ": https://api.stripe.com/v1/charges", "curl -u " + Mask + ": https://api.stripe.com/v1/charges"},
	{"stripe restricted key", "STRIPE=" + stripeRestricted + " ./run", "STRIPE=" + Mask + " ./run"},
	{"stripe test secret key", "echo sk_test_4eC39HqLyjWDarjtT1zdp7dc", "echo " + Mask},
	{"slack webhook", "curl -d @m.json " + slackWebhook, "curl -d @m.json https://hooks.slack.com/services/" + Mask},
	{"slack workflow webhook", "curl https://hooks.slack.com/workflows/T0AB12CD3/A0123ABCDEF/456789012345678901/AbCdEfGhIjKlMnOpQrStUvWx", "curl https://hooks.slack.com/workflows/" + Mask},
	{"discord webhook", "curl -H 'Content-Type: application/json' " + discordWebhook, "curl -H 'Content-Type: application/json' https://discord.com/api/webhooks/" + Mask},
	{"discordapp webhook", "wget https://discordapp.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz0123", "wget https://discordapp.com/api/webhooks/" + Mask},
	{"slack user token", "echo xoxp-1234567890-abcdefghij", "echo " + Mask},
	{"slack app token", "echo xoxa-2-abcdefghijkl xoxr-abcdefghij12 xoxs-abcdefghij12", "echo " + Mask + " " + Mask + " " + Mask},
	{"github token kinds", "echo ghu_16C7e42F292c6912E7710c838347Ae178B4a ghs_16C7e42F292c6912E7710c838347Ae178B4a ghr_16C7e42F292c6912E7710c838347Ae178B4a", "echo " + Mask + " " + Mask + " " + Mask},
	{"near: gitlab short", "glpat-short", "glpat-short"},
	{"near: npm config variable", "npm_config_cache=/tmp/npm npm_package_version=1 npm ci", "npm_config_cache=/tmp/npm npm_package_version=1 npm ci"},
	{"near: npm word", "npm_abcdefghijklmnopqrstuvwxyz0123456789extra", "npm_abcdefghijklmnopqrstuvwxyz0123456789extra"},
	{"near: pypi package names", "pip install pypi-simple && pypi-server run -p 8080", "pip install pypi-simple && pypi-server run -p 8080"},
	{"near: stripe publishable key", "echo pk_live_51H8abcdefghijklmnopqrstuv", "echo pk_live_51H8abcdefghijklmnopqrstuv"},
	{"near: sk_live inside a word", "disk_live_backup_0123456789abcdef", "disk_live_backup_0123456789abcdef"},
	{"near: slack docs", "open https://api.slack.com/messaging/webhooks https://hooks.slack.com/", "open https://api.slack.com/messaging/webhooks https://hooks.slack.com/"},
	{"near: discord docs", "open https://discord.com/developers/docs/resources/webhook", "open https://discord.com/developers/docs/resources/webhook"},

	// Rule 6: passwords given to programs by short flags.
	{"redis-cli -a", "redis-cli -h cache -a s3cretPW ping", "redis-cli -h cache -a " + Mask + " ping"},
	{"redis-cli --pass", "redis-cli --pass 's3cret PW' --no-auth-warning get k", "redis-cli --pass '" + Mask + "' --no-auth-warning get k"},
	{"redis-cli in a pipeline", "echo PING | /usr/bin/redis-cli -a pw -n 2", "echo PING | /usr/bin/redis-cli -a " + Mask + " -n 2"},
	{"docker login -p", "docker login -u me -p s3cretPW ghcr.io", "docker login -u me -p " + Mask + " ghcr.io"},
	{"docker login -p attached", "sudo docker --config /c login -ps3cretPW registry", "sudo docker --config /c login -p" + Mask + " registry"},
	{"podman login -p", `podman login -p "s3cret" quay.io`, `podman login -p "` + Mask + `" quay.io`},
	{"mysql -p attached", "mysql -uroot -ps3cretPW db -e 'select 1'", "mysql -uroot -p" + Mask + " db -e 'select 1'"},
	{"mysqldump -p quoted", "mysqldump -u root -p'a b' db > d.sql", "mysqldump -u root -p'" + Mask + "' db > d.sql"},
	{"mariadb -p", "env MYSQL_HOST=db mariadb -pS3cr3t", "env MYSQL_HOST=db mariadb -p" + Mask},
	{"sshpass -p", "sshpass -p s3cretPW ssh -p 22 host", "sshpass -p " + Mask + " ssh -p 22 host"},
	{"sshpass -p attached", "sshpass -ps3cretPW scp a host:", "sshpass -p" + Mask + " scp a host:"},
	{"sshpass env", "SSHPASS=s3cret sshpass -e ssh host", "SSHPASS=" + Mask + " sshpass -e ssh host"},
	{"redis env", "REDISCLI_AUTH=s3cret redis-cli ping", "REDISCLI_AUTH=" + Mask + " redis-cli ping"},
	{"mysql in a quoted command line", `bash -c "mysql -pS3cret db" && ssh h 'redis-cli -a pw'`, `bash -c "mysql -p` + Mask + ` db" && ssh h 'redis-cli -a ` + Mask + `'`},
	{"mysql after sudo with options", "sudo -u root mysql -pA1 && sudo -E mysqladmin -pB2 status", "sudo -u root mysql -p" + Mask + " && sudo -E mysqladmin -p" + Mask + " status"},
	{"mysql in a substitution", "n=$(mysql -N -pS3cret -e 'select 1')", "n=$(mysql -N -p" + Mask + " -e 'select 1')"},
	{"near: docker run -p", "docker run -p 8080:80 -a stdout nginx", "docker run -p 8080:80 -a stdout nginx"},
	{"near: docker login from stdin", "echo $T | docker login -u me --password-stdin ghcr.io", "echo $T | docker login -u me --password-stdin ghcr.io"},
	{"near: mysql prompts", "mysql -u root -p mydb", "mysql -u root -p mydb"},
	{"near: mysql port", "mysql -P 3306 -h db -u app", "mysql -P 3306 -h db -u app"},
	{"near: other programs' -p and -a", "mkdir -p a && cp -a -p b c && ssh -p 2222 h && tar -a -cf x.tgz d", "mkdir -p a && cp -a -p b c && ssh -p 2222 h && tar -a -cf x.tgz d"},
	{"near: sshpass reading a file", "sshpass -f ~/.pw ssh -p 22 host", "sshpass -f ~/.pw ssh -p 22 host"},
	{"near: redis-cli as an argument", "echo redis-cli -a is how to log in", "echo redis-cli -a is how to log in"},
	{"near: redis-cli after the command", "apt-get install redis-cli -a x", "apt-get install redis-cli -a x"},

	// Tokens glued together: the second only starts a word once the first
	// is masked.
	{"glued aws and github", awsKeyID + ghToken, Mask + Mask},
	{"glued aws and scheme", awsKeyID + "token abcdefgh12", Mask + "token " + Mask},

	// Several rules in one command.
	{"mixed", "GITHUB_TOKEN=" + ghToken + " curl -u x https://me:pw@h -H 'Authorization: token " + ghToken + "'",
		"GITHUB_TOKEN=" + Mask + " curl -u x https://me:" + Mask + "@h -H 'Authorization: " + Mask + "'"},
}

func TestString(t *testing.T) {
	for _, tt := range stringTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStringIdempotent(t *testing.T) {
	for _, tt := range stringTests {
		once := String(tt.in)
		if twice := String(once); twice != once {
			t.Errorf("%s: String is not idempotent:\n once %q\ntwice %q", tt.name, once, twice)
		}
	}
}

// A value that is already the mask must not be cut open and re-masked into
// "[REDACTED]]": ']' ends a JSON-ish value.
func TestStringMaskInsideValue(t *testing.T) {
	for _, in := range []string{
		`{"password": [REDACTED], "n": 1}`,
		"password: [REDACTED]",
		"TOKEN=[REDACTED] x",
		`-H "Authorization: [REDACTED]"`,
		"Bearer [REDACTED]",
		"https://u:[REDACTED]@h",
	} {
		if got := String(in); got != in {
			t.Errorf("String(%q) = %q, want it unchanged", in, got)
		}
	}
}

func TestSecretName(t *testing.T) {
	tests := []struct {
		name   string
		secret bool
	}{
		{"password", true},
		{"PASSWORD", true},
		{"db_password", true},
		{"passwd", true},
		{"passphrase", true},
		{"GITHUB_TOKEN", true},
		{"csrf-token", true},
		{"accessToken", true},
		{"api-key", true},
		{"apiKey", true},
		{"API_KEY", true},
		{"x-api-key", true},
		{"client_secret", true},
		{"aws_secret_access_key", true},
		{"private_key", true},
		{"credential", true},
		{"credentials", true},
		{"google_application_credentials", true},
		{"Authorization", true},
		{"Proxy-Authorization", true},
		{"cookie", true},
		{"Set-Cookie", true},
		{"session_id", true},
		{"SSHPASS", true},
		{"REDISCLI_AUTH", true},
		{"bypass", false},
		{"PHPSESSID", false}, // "sessid", not "sessionid"
		{"max_tokens", false},
		{"input_tokens", false},
		{"token_count", false},
		{"tokenizer", false},
		{"password_policy", false},
		{"secrets_dir", false},
		{"key", false},
		{"monkey", false},
		{"author", false},
		{"session", false},
		{"", false},
		{"-", false},
	}
	for _, tt := range tests {
		if got := secretName(tt.name); got != tt.secret {
			t.Errorf("secretName(%q) = %v, want %v", tt.name, got, tt.secret)
		}
	}
}

// The fast path is only sound if every secret name trips it, however it is
// spelt.
func TestHintsCoverEverySuffix(t *testing.T) {
	for _, suf := range secretSuffixes {
		spellings := []string{
			suf,
			strings.ToUpper(suf),
			"X_" + strings.ToUpper(suf[:1]) + suf[1:],
			strings.Join(strings.Split(suf, ""), "_"),
			strings.Join(strings.Split(suf, ""), "-"),
		}
		for _, name := range spellings {
			if !secretName(name) {
				t.Errorf("secretName(%q) = false", name)
			}
			if hints(name)&hintName == 0 {
				t.Errorf("hints(%q) misses a secret name", name)
			}
			if hints([]byte(`{"`+name+`":1}`))&hintName == 0 {
				t.Errorf("hints misses the key %q in raw JSON", name)
			}
		}
	}
}

func TestJSON(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"secret key string", `{"password":"hunter2"}`, `{"password":"[REDACTED]"}`},
		{"secret key number", `{"api-key":12345}`, `{"api-key":"[REDACTED]"}`},
		{"secret key object", `{"Authorization":{"scheme":"Bearer","v":"x"}}`, `{"Authorization":"[REDACTED]"}`},
		{"secret key array", `{"credentials":["a","b"]}`, `{"credentials":"[REDACTED]"}`},
		{"secret key null", `{"GITHUB_TOKEN":null}`, `{"GITHUB_TOKEN":"[REDACTED]"}`},
		{"near: count keys", `{"max_tokens":100,"input_tokens":7,"token_count":5,"tokenizer":"bpe"}`,
			`{"input_tokens":7,"max_tokens":100,"token_count":5,"tokenizer":"bpe"}`},
		{"bash command", `{"command":"GITHUB_TOKEN=abc gh pr list","description":"List PRs"}`,
			`{"command":"GITHUB_TOKEN=[REDACTED] gh pr list","description":"List PRs"}`},
		{"nested", `{"a":{"b":[{"client_secret":"s","n":1},{"url":"https://u:p@h/"}]}}`,
			`{"a":{"b":[{"client_secret":"[REDACTED]","n":1},{"url":"https://u:[REDACTED]@h/"}]}}`},
		{"array of strings", `["GITHUB_TOKEN=abc","ok","` + ghToken + `"]`, `["GITHUB_TOKEN=[REDACTED]","ok","[REDACTED]"]`},
		{"keys are not redacted as text", `{"` + ghToken + `":"v"}`, `{"` + ghToken + `":"v"}`},
		{"mcp arguments", `{"server":"github","arguments":{"headers":{"X-Api-Key":"k1"},"body":"token: abc"}}`,
			`{"arguments":{"body":"token: [REDACTED]","headers":{"X-Api-Key":"[REDACTED]"}},"server":"github"}`},
		{"numbers exact", `{"huge":1e400,"big":12345678901234567890,"neg":-0.0,"tiny":1E-7,"token":1}`,
			`{"big":12345678901234567890,"huge":1e400,"neg":-0.0,"tiny":1E-7,"token":"[REDACTED]"}`},
		{"numbers exact on the fast path", `{"huge":1e400,"big":12345678901234567890}`, `{"huge":1e400,"big":12345678901234567890}`},
		{"flag and value in an argument list", `{"args":["--api-key","k1","--port","80","--token","--verbose","-p","x"]}`,
			`{"args":["--api-key","[REDACTED]","--port","80","--token","--verbose","-p","x"]}`},
		{"secret flag value of any type", `["--password",12345,"--token",{"a":"b"}]`, `["--password","[REDACTED]","--token","[REDACTED]"]`},
		{"near: flag with its value attached", `["--password=x","y"]`, `["--password=[REDACTED]","y"]`},
		{"near: count flag in an argument list", `["--max-tokens","4096"]`, `["--max-tokens","4096"]`},
		{"top-level string", `"export API_KEY=x"`, `"export API_KEY=[REDACTED]"`},
		{"top-level number", `1e400`, `1e400`},
		{"literals", `[true,false,null]`, `[true,false,null]`},
		{"no html escaping", `{"command":"make 2>&1 && echo <token> ` + ghToken + `"}`, `{"command":"make 2>&1 && echo <token> [REDACTED]"}`},
		{"fast path compacts", "{ \"command\" : \"ls -la\" ,\n \"n\": [1, 2] }", `{"command":"ls -la","n":[1,2]}`},
		{"escaped key", `{"pass\u0077ord":"hunter2"}`, `{"password":"[REDACTED]"}`},
		{"escaped slashes", `{"u":"https:\/\/u:p@h\/x"}`, `{"u":"https://u:[REDACTED]@h/x"}`},
		{"password flag in a command", `{"command":"redis-cli -a pw ping && docker login -p x r"}`, `{"command":"redis-cli -a [REDACTED] ping && docker login -p [REDACTED] r"}`},
		{"webhook in a command", `{"command":"curl https://hooks.slack.com/services/T0/B0/abcdefghij"}`, `{"command":"curl https://hooks.slack.com/services/[REDACTED]"}`},
		{"escaped newline in key block", `{"content":"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n"}`, `{"content":"[REDACTED]\n"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := JSON([]byte(tt.in))
			if string(got) != tt.want {
				t.Errorf("JSON(%s)\n got %s\nwant %s", tt.in, got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("JSON(%s) = %s, not valid JSON", tt.in, got)
			}
			if again := JSON(got); string(again) != string(got) {
				t.Errorf("JSON is not idempotent: %s then %s", got, again)
			}
		})
	}
}

func TestJSONInvalid(t *testing.T) {
	for _, in := range []string{
		``,
		` `,
		`{"password":"hunter2"`,
		`{"password":"hunter2",}`,
		`{"a":1} {"b":2}`,
		`{"a":1}]`,
		`nope`,
		`{'password':'x'}`,
		"[\"\xff\"] x",
	} {
		got := JSON([]byte(in))
		if string(got) != unparseable {
			t.Errorf("JSON(%q) = %s, want %s", in, got, unparseable)
		}
	}
}

// Invalid UTF-8 inside valid JSON is repaired, not rejected: the rest of the
// input is still worth auditing.
func TestJSONInvalidUTF8(t *testing.T) {
	got := JSON([]byte("{\"command\":\"echo \xff\"}"))
	if want := `{"command":"echo ` + "\uFFFD" + `"}`; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The result must not share memory with the input: the caller may reuse its
// buffer before the audit line is written.
func TestJSONCopies(t *testing.T) {
	in := []byte(`{"command":"ls"}`)
	out := JSON(in)
	in[2] = 'X'
	if string(out) != `{"command":"ls"}` {
		t.Errorf("output changed with the input: %s", out)
	}
}

func TestTruncate(t *testing.T) {
	in := json.RawMessage(`{"command":"ls"}`)
	for _, max := range []int{len(in), len(in) + 1, 1 << 20} {
		if got := Truncate(in, max); &got[0] != &in[0] {
			t.Errorf("Truncate(_, %d) copied an input within the limit", max)
		}
	}
	tests := []struct {
		name string
		raw  string
		max  int
		want string
	}{
		{"ascii", `{"command":"ls -la"}`, 10, `"{\"command\"…(10 bytes truncated)"`},
		{"zero", `[1,2]`, 0, `"…(5 bytes truncated)"`},
		{"negative", `[1,2]`, -3, `"…(5 bytes truncated)"`},
		{"cut inside a 2-byte rune", `"héllo"`, 3, `"\"h…(6 bytes truncated)"`},
		{"cut after a 2-byte rune", `"héllo"`, 4, `"\"hé…(4 bytes truncated)"`},
		{"cut inside a 3-byte rune", `"日本語"`, 5, `"\"日…(7 bytes truncated)"`},
		{"cut inside a 4-byte rune", `"😀😀"`, 8, `"\"😀…(5 bytes truncated)"`},
		{"html kept", `"a<b>&c"`, 4, `"\"a<b…(4 bytes truncated)"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Truncate(json.RawMessage(tt.raw), tt.max)
			if string(got) != tt.want {
				t.Errorf("Truncate(%s, %d)\n got %s\nwant %s", tt.raw, tt.max, got, tt.want)
			}
		})
	}
}

// Every cut point of multi-byte text: the kept prefix is whole runes, the
// count is right and the result is a valid JSON string.
func TestTruncateEveryCut(t *testing.T) {
	raw := json.RawMessage(`{"text":"日本語 héllo 😀 wörld ok"}`)
	for max := 0; max < len(raw); max++ {
		got := Truncate(raw, max)
		var s string
		if err := json.Unmarshal(got, &s); err != nil {
			t.Fatalf("max %d: %s is not a JSON string: %v", max, got, err)
		}
		if !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
			t.Fatalf("max %d: broken rune in %q", max, s)
		}
		i := strings.LastIndex(s, "…(")
		if i < 0 {
			t.Fatalf("max %d: no marker in %q", max, s)
		}
		kept := s[:i]
		if !strings.HasPrefix(string(raw), kept) || len(kept) > max || len(kept) < max-(utf8.UTFMax-1) {
			t.Fatalf("max %d: kept %q", max, kept)
		}
		if want := "…(" + strconv.Itoa(len(raw)-len(kept)) + " bytes truncated)"; s[i:] != want {
			t.Fatalf("max %d: marker %q, want %q", max, s[i:], want)
		}
	}
}

// The fast paths are what make auditing cheap; they must stay free.
func TestFastPathAllocations(t *testing.T) {
	cmd := "cd /work/main && go test ./... -run TestParse -count=1 2>&1 | tail -40"
	if n := testing.AllocsPerRun(100, func() { String(cmd) }); n != 0 {
		t.Errorf("String on ordinary text: %v allocations, want 0", n)
	}
	raw := []byte(`{"command":"` + cmd + `","description":"Run the parser tests"}`)
	if n := testing.AllocsPerRun(100, func() { JSON(raw) }); n > 2 {
		t.Errorf("JSON on ordinary input: %v allocations, want at most 2", n)
	}
}

// Rule 6 is keyed to its programs, not to -p and -a, which nearly every
// command line has: those stay on the fast path.
func TestHintsIgnoreCommonFlags(t *testing.T) {
	for _, cmd := range []string{
		"mkdir -p build && cp -a -p src dst",
		"ssh -p 2222 host uptime",
		"docker run -p 8080:80 -a stdout nginx",
		"tar -a -cf out.tgz dir && git push -u origin main",
	} {
		if h := hints(cmd); h != 0 {
			t.Errorf("hints(%q) = %b, want the fast path", cmd, h)
		}
	}
}

// The fast path may only skip what the full rules would leave alone.
func TestFastPathAgreesWithSlowPath(t *testing.T) {
	for _, tt := range stringTests {
		if hints(tt.in) == 0 && once(tt.in, ^uint8(0)) != tt.in {
			t.Errorf("%s: the fast path skips %q, which the rules change", tt.name, tt.in)
		}
	}
	raw := []byte(`{"command":"cd /work && ls -la","timeout":120000,"n":1e400}`)
	if !canSkipJSON(raw) {
		t.Fatalf("ordinary input takes the slow path")
	}
	fast, slow := decode(t, JSON(raw)), decode(t, redactJSON(raw))
	if !reflect.DeepEqual(fast, slow) {
		t.Errorf("fast %v != slow %v", fast, slow)
	}
}

func decode(t *testing.T, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
	return v
}

// The bench input is the typical Bash tool call: about 200 characters of
// command and description, nothing secret in it.
var benchBash = []byte(`{"command":"cd /work/main && go test ./config/... -run 'TestParse|TestValidate' -count=1 2>&1 | tail -40 && git status --short","description":"Run the config parser tests and show the working tree status"}`)

func BenchmarkJSONBash(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchBash)))
	for b.Loop() {
		JSON(benchBash)
	}
}

// The same call carrying a token takes the long way: decode, mask, encode.
func BenchmarkJSONBashSecret(b *testing.B) {
	raw := []byte(`{"command":"GITHUB_TOKEN=` + ghToken + ` gh pr list --repo massgen/massgen-hook --state open --limit 20 2>&1 | head -40","description":"List the open pull requests"}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		JSON(raw)
	}
}

// Unicode case folding would let 'ſ' (long s) and the Kelvin sign spell a
// keyword that the fast path, which is ASCII, does not see. The rules must
// be ASCII too, or the fast path would skip text they change.
func TestNoUnicodeFolding(t *testing.T) {
	for _, s := range []string{
		"baſic dXNlcjpwYXNz",
		"to\u212aen 0123456789abcdef",
		"Bearer\u00a0AbCdEf123456",
	} {
		if hints(s) != 0 || once(s, ^uint8(0)) != s {
			t.Errorf("%q: hints %b, rules give %q", s, hints(s), once(s, ^uint8(0)))
		}
	}
}
