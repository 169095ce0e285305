package shellcmd

import "mvdan.cc/sh/v3/syntax"

// Redirect is a redirection to or from a file.
type Redirect struct {
	// Op is one of ">", ">>", ">|", "&>", "&>>", "<", "<>", or ">&" (only
	// when its target is a file: `2>&1` and `>&-` are not listed). zsh's
	// >>|, &>| and &>>| are reported as >>, &> and &>>.
	Op     string
	Fd     string // explicit fd ("2" in 2>x), "" if none
	Target Word
}

// inherited links the redirections that enclosing compound commands and
// unlisted wrappers hand down. A link is flattened only when a command
// needs it, and only once, so deeply nested blocks stay linear; commands
// may therefore share one Redirects backing array.
type inherited struct {
	up   *inherited
	own  []Redirect
	flat []Redirect
	done bool
}

func (h *inherited) all() []Redirect {
	if h == nil {
		return nil
	}
	if h.done {
		return h.flat
	}
	// Copy the links up to the nearest one already flattened, in one pass.
	n, top := 0, h
	for ; top != nil && !top.done; top = top.up {
		n += len(top.own)
	}
	var base []Redirect
	if top != nil {
		base = top.flat
	}
	flat := make([]Redirect, len(base)+n)
	copy(flat, base)
	end := len(flat)
	for l := h; l != top; l = l.up {
		end -= len(l.own)
		copy(flat[end:], l.own)
	}
	h.flat, h.done = flat, true
	return flat
}

// plus returns the inherited redirections followed by own.
func (h *inherited) plus(own []Redirect) []Redirect {
	all := h.all()
	if len(all) == 0 {
		return own
	}
	if len(own) == 0 {
		return all
	}
	return appendClip(all, own...)
}

// inherit returns h with own added below it.
func (h *inherited) inherit(own []Redirect) *inherited {
	if len(own) == 0 {
		return h
	}
	return &inherited{up: h, own: own}
}

// writes reports whether the redirection opens its target for writing.
func (r Redirect) writes() bool {
	return r.Op != "<"
}

// reads reports whether the redirection feeds its target to the command.
func (r Redirect) reads() bool {
	return r.Op == "<" || r.Op == "<>"
}

// redirects lists the file redirections of a statement and walks the
// commands their words run. Heredocs and here-strings are data, not files:
// they are left out, but the substitutions in a here-string and in the body
// of a heredoc with an unquoted delimiter run, so those are walked. (The
// parser keeps a quoted-delimiter body as one literal.)
func (w *walker) redirects(rs []*syntax.Redirect, c ctx, dir string) []Redirect {
	var out []Redirect
	for _, r := range rs {
		if r == nil {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			w.word(r.Hdoc, c, dir)
			continue
		case syntax.WordHdoc, syntax.DplIn:
			w.word(r.Word, c, dir)
			continue
		}
		target := w.word(r.Word, c, dir)
		op := redirOp(r.Op)
		if op == "" || (r.Op == syntax.DplOut && target.Known && isFd(target.Value)) {
			continue
		}
		red := Redirect{Op: op, Target: target}
		if r.N != nil {
			red.Fd = r.N.Value
		}
		out = append(out, red)
	}
	return out
}

func redirOp(op syntax.RedirOperator) string {
	switch op {
	case syntax.RdrOut:
		return ">"
	case syntax.AppOut, syntax.AppClob:
		return ">>"
	case syntax.RdrClob:
		return ">|"
	case syntax.RdrAll, syntax.RdrAllClob:
		return "&>"
	case syntax.AppAll, syntax.AppAllClob:
		return "&>>"
	case syntax.RdrIn:
		return "<"
	case syntax.RdrInOut:
		return "<>"
	case syntax.DplOut:
		return ">&"
	}
	return ""
}

// isFd reports whether the target of >& names a file descriptor: a number,
// "-" (close it), or a number followed by "-" (move it).
func isFd(s string) bool {
	if s == "-" {
		return true
	}
	if len(s) > 1 && s[len(s)-1] == '-' {
		s = s[:len(s)-1]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
