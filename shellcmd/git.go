package shellcmd

import "strings"

// Git is a git command line read as git reads it: its own options first
// (-C DIR moves it, -c NAME=VALUE sets configuration), then the
// subcommand and the subcommand's arguments.
type Git struct {
	Sub  string
	Args []Word
	// Dir is the repository's directory after -C, from the command's own
	// directory; "" when it cannot be known.
	Dir string
	// Config lists the -c NAME=VALUE and --config-env settings.
	Config []Word
	// Line is Args read against the subcommand's option table; Known is
	// false for a subcommand without a table here.
	Line  Line
	Known bool
}

// Git reads c as a git command line. ok is false when c is not git, names
// no subcommand, or its own options cannot be read (an unknown word
// where git's options are).
func (c *Command) Git(dir string) (g Git, ok bool) {
	if c.Base() != "git" {
		return Git{}, false
	}
	if c.Dir != "" {
		dir = c.Dir
	}
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			return Git{}, false
		}
		v := a.Value
		switch {
		case v == "-C" && i+1 < len(args):
			i++
			dir = chdir(dir, args[i])
		case v == "-c" && i+1 < len(args):
			i++
			g.Config = append(g.Config, args[i])
		case v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--super-prefix" ||
			v == "--config-env" || v == "--list-cmds":
			i++
			if v == "--config-env" && i < len(args) {
				g.Config = append(g.Config, args[i])
			}
		case len(v) > 1 && v[0] == '-':
			if rest, ok := strings.CutPrefix(v, "--config-env="); ok {
				g.Config = append(g.Config, part(a, rest))
			}
		default:
			g.Sub, g.Args, g.Dir = v, args[i+1:], dir
			if t, ok := gitOptions[v]; ok {
				g.Line, g.Known = t.Parse(g.Args), true
			}
			return g, true
		}
	}
	return Git{}, false
}

// gitOptions are the option tables of git's subcommands (git 2.39: from
// `git SUB -h` and `git SUB --git-completion-helper-all`). git's
// parse-options takes any unique prefix of a long option and options
// after operands; "--" ends them.
var gitOptions = map[string]*OptionTable{
	"push": {Abbrev: true, Permute: true, Short: "vqdnfuo:46",
		Long: "verbose quiet repo= all mirror delete tags dry-run porcelain force " +
			"force-with-lease[=] force-if-includes recurse-submodules= thin receive-pack= exec= " +
			"set-upstream progress prune no-verify follow-tags signed[=] atomic push-option= " +
			"ipv4 ipv6 verify no-verbose no-quiet no-repo no-all no-mirror no-delete no-tags " +
			"no-dry-run no-porcelain no-force no-force-with-lease no-force-if-includes " +
			"no-recurse-submodules no-thin no-receive-pack no-exec no-set-upstream no-progress " +
			"no-prune no-follow-tags no-signed no-atomic no-push-option no-ipv4 no-ipv6"},
	"reset": {Abbrev: true, Permute: true, Short: "qpN",
		Long: "quiet no-refresh mixed soft hard merge keep recurse-submodules[=] patch " +
			"intent-to-add pathspec-from-file= pathspec-file-nul refresh no-quiet no-mixed " +
			"no-soft no-hard no-merge no-keep no-recurse-submodules no-patch no-intent-to-add " +
			"no-pathspec-from-file no-pathspec-file-nul"},
	"clean": {Abbrev: true, Permute: true, Short: "qnfide:xX",
		Long: "quiet dry-run force interactive exclude= no-quiet no-dry-run no-force " +
			"no-interactive"},
	"commit": {Abbrev: true, Permute: true, Short: "qvF:m:c:C:st:eS::aiponzu::",
		Long: "quiet verbose file= author= date= message= reedit-message= reuse-message= fixup= " +
			"squash= reset-author trailer= signoff template= edit cleanup= status gpg-sign[=] " +
			"all include interactive patch only no-verify dry-run short branch ahead-behind " +
			"porcelain long null amend no-post-rewrite untracked-files[=] pathspec-from-file= " +
			"pathspec-file-nul allow-empty allow-empty-message verify post-rewrite no-quiet " +
			"no-verbose no-file no-author no-date no-message no-reedit-message no-reuse-message " +
			"no-fixup no-squash no-reset-author no-signoff no-template no-edit no-cleanup " +
			"no-status no-gpg-sign no-all no-include no-interactive no-patch no-only no-dry-run " +
			"no-short no-branch no-ahead-behind no-porcelain no-long no-null no-amend " +
			"no-untracked-files no-pathspec-from-file no-pathspec-file-nul no-allow-empty " +
			"no-allow-empty-message"},
	"merge": {Abbrev: true, Permute: true, Short: "nes:X:m:F:vqS::",
		Long: "stat summary= log[=] squash commit edit cleanup= ff ff-only rerere-autoupdate " +
			"verify-signatures strategy= strategy-option= message= file= into-name= verbose " +
			"quiet abort quit continue allow-unrelated-histories progress gpg-sign[=] autostash " +
			"overwrite-ignore signoff no-verify verify no-stat no-summary no-log no-squash " +
			"no-commit no-edit no-cleanup no-ff no-rerere-autoupdate no-verify-signatures " +
			"no-strategy no-strategy-option no-message no-into-name no-verbose no-quiet no-abort " +
			"no-quit no-continue no-allow-unrelated-histories no-progress no-gpg-sign " +
			"no-autostash no-overwrite-ignore no-signoff"},
	"rebase": {Abbrev: true, Permute: true, Short: "qvnC:fmiS::x:r::s:X:",
		Long: "onto= keep-base no-verify quiet verbose no-stat signoff " +
			"committer-date-is-author-date reset-author-date ignore-date ignore-whitespace " +
			"whitespace= force-rebase no-ff continue skip abort quit edit-todo " +
			"show-current-patch apply merge interactive preserve-merges rerere-autoupdate empty= " +
			"keep-empty autosquash update-refs gpg-sign[=] autostash exec= allow-empty-message " +
			"rebase-merges[=] fork-point strategy= strategy-option= root reschedule-failed-exec " +
			"reapply-cherry-picks verify stat ff no-onto no-keep-base no-quiet no-verbose " +
			"no-signoff no-committer-date-is-author-date no-reset-author-date no-ignore-date " +
			"no-ignore-whitespace no-whitespace no-force-rebase no-preserve-merges " +
			"no-rerere-autoupdate no-keep-empty no-autosquash no-update-refs no-gpg-sign " +
			"no-autostash no-exec no-allow-empty-message no-rebase-merges no-fork-point " +
			"no-strategy no-strategy-option no-root no-reschedule-failed-exec " +
			"no-reapply-cherry-picks"},
	"am": {Abbrev: true, Permute: true, Short: "i3qsukmcC:p:rS::",
		Long: "interactive binary 3way quiet signoff utf8 keep keep-non-patch message-id keep-cr " +
			"no-keep-cr scissors quoted-cr= whitespace= ignore-space-change ignore-whitespace " +
			"directory= exclude= include= patch-format= reject resolvemsg= continue resolved " +
			"skip abort quit show-current-patch[=] allow-empty committer-date-is-author-date " +
			"ignore-date rerere-autoupdate gpg-sign[=] empty= rebasing no-interactive no-binary " +
			"no-3way no-quiet no-signoff no-utf8 no-keep no-keep-non-patch no-message-id " +
			"no-scissors no-whitespace no-ignore-space-change no-ignore-whitespace no-directory " +
			"no-exclude no-include no-patch-format no-reject no-resolvemsg " +
			"no-committer-date-is-author-date no-ignore-date no-rerere-autoupdate no-gpg-sign " +
			"no-rebasing"},
}
