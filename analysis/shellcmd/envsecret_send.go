package shellcmd

import (
	"regexp"
	"strings"

	"github.com/massgen/massgen-hook/internal/lazy"
)

// A secret in an environment variable also leaves the machine when a
// command sends its bare value as the whole body of a request: curl's
// data (-d "$TOKEN", or -d @- with the value on its standard input),
// wget's --post-data, or everything nc is given. No service takes a bare
// token as the data posted to it; that is the shape of a secret carried
// off. Handing the secret to the service it belongs to as a credential
// (curl -H "Authorization: Bearer $TOKEN", -u, --oauth2-bearer) or inside
// a field of the data (-d "token=$TOKEN") is its use, and passes.

// SecretSend is one command that sends a secret environment variable's
// bare value over the network as a request's whole body.
type SecretSend struct {
	Cmd *Command
	Var string
}

// SecretSends lists the commands of s that send a secret environment
// variable's bare value as a request's body.
func SecretSends(s *Script) []SecretSend {
	var out []SecretSend
	for i, c := range s.Commands {
		if v := sendsSecret(s.Commands, i); v != "" {
			out = append(out, SecretSend{Cmd: c, Var: v})
		}
	}
	return out
}

// sendsSecret is the secret variable whose bare value cmds[i] sends as a
// body, "" for none.
func sendsSecret(cmds []*Command, i int) string {
	c := cmds[i]
	switch c.Base() {
	case "curl":
		for _, o := range curlOptions.Parse(c.Args).Opts {
			if !o.HasVal {
				continue
			}
			body := o.Is('d', "data") || o.Is(0, "data-binary") || o.Is(0, "data-ascii") || o.Is(0, "data-raw") ||
				o.Is(0, "data-urlencode") || o.Is(0, "json")
			switch {
			case body && bareSecret(o.Val) != "":
				return bareSecret(o.Val)
			case body && o.Val.Known && (o.Val.Value == "@-" || o.Val.Value == "@/dev/stdin"),
				o.Is('T', "upload-file") && o.Val.Known && (o.Val.Value == "-" || o.Val.Value == "."):
				if v := stdinSecret(cmds, i); v != "" {
					return v
				}
			}
		}
		return attachedSecret(c.Args, "-d", "--data-binary=", "--data-raw=", "--json=")
	case "wget":
		l := wgetOptions.Parse(c.Args)
		for _, w := range append(l.Vals(0, "post-data"), l.Vals(0, "body-data")...) {
			if v := bareSecret(w); v != "" {
				return v
			}
		}
		return attachedSecret(c.Args, "--post-data=", "--body-data=")
	case "nc", "ncat", "netcat":
		return stdinSecret(cmds, i)
	}
	return ""
}

// attachedSecret finds a body option given with its value attached to it
// (-d"$TOKEN", --post-data="$TOKEN"): a word with a variable in it is not
// read as an option at all, so it is looked at here.
func attachedSecret(args []Word, prefixes ...string) string {
	for _, a := range args {
		if a.Known {
			continue
		}
		for _, p := range prefixes {
			if rest, ok := strings.CutPrefix(a.Value, p); ok {
				if v := bareSecret(Word{Value: rest}); v != "" {
					return v
				}
			}
		}
	}
	return ""
}

// bareSecretRef is a word that is one variable's value and nothing else:
// $NAME, ${NAME}, or ${NAME...} with a default or a trim.
var bareSecretRef = &lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)(?:[:#%/^,][^}]*)?\})$`)
}}

// bareSecret is the secret-named variable whose value is all of w, ""
// when w is anything else (text around it, a known word, no secret name).
func bareSecret(w Word) string {
	if w.Known {
		return ""
	}
	m := bareSecretRef.Get().FindStringSubmatch(strings.TrimSpace(w.Value))
	if m == nil {
		return ""
	}
	name := m[1] + m[2]
	if !SecretName(name) {
		return ""
	}
	return name
}

// stdinSecret is the secret variable whose bare value is all that
// cmds[i] reads on its standard input: a here-string or heredoc of it, or
// an echo or printf of it alone in the stage before; "" otherwise.
func stdinSecret(cmds []*Command, i int) string {
	c := cmds[i]
	if c.Stdin == nil {
		return ""
	}
	switch c.Stdin.From {
	case "here-string", "heredoc":
		return bareSecret(c.Stdin.Text)
	case "pipe":
		for _, p := range cmds[:i] {
			if p.Pipeline == c.Pipeline && p.Stage == c.Stage-1 {
				return printedAlone(p)
			}
		}
	}
	return ""
}

// printedAlone is the secret variable an echo or printf prints and
// nothing else: echo [-n] "$TOKEN", printf %s "$TOKEN", printf "$TOKEN".
func printedAlone(p *Command) string {
	args := p.Args
	switch p.Base() {
	case "echo":
		for len(args) > 0 && args[0].Known && (args[0].Value == "-n" || args[0].Value == "-e" || args[0].Value == "-E") {
			args = args[1:]
		}
	case "printf":
		if len(args) == 2 && args[0].Known && (args[0].Value == "%s" || args[0].Value == `%s\n`) {
			args = args[1:]
		}
	default:
		return ""
	}
	if len(args) != 1 {
		return ""
	}
	return bareSecret(args[0])
}
