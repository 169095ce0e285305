package shellcmd

// gitOptions are the option tables of git's subcommands (git 2.39: from
// `git SUB -h` and `git SUB --git-completion-helper-all`, checked against
// the manual), keyed by subcommand, or "subcommand verb" for those that
// take an action (stash drop). git's parse-options takes any unique prefix
// of a long option, the "no-" form of most, and options after operands;
// "--" ends them. Optional arguments are attached only (-t[=MODE]).
var gitOptions = optionTables{
	{"add", &OptionTable{Abbrev: true, Permute: true, Short: "nvipefuNA",
		Long: "dry-run verbose interactive patch edit force update renormalize intent-to-add all " +
			"ignore-removal refresh ignore-errors ignore-missing sparse chmod= pathspec-from-file= " +
			"warn-embedded-repo no-warn-embedded-repo " +
			"pathspec-file-nul no-dry-run no-verbose no-interactive no-patch no-edit no-force " +
			"no-update no-renormalize no-intent-to-add no-all no-ignore-removal no-refresh " +
			"no-ignore-errors no-ignore-missing no-sparse no-chmod no-pathspec-from-file " +
			"no-pathspec-file-nul"}},
	{"push", &OptionTable{Abbrev: true, Permute: true, Short: "vqdnfuo:46",
		Long: "verbose quiet repo= all mirror delete tags dry-run porcelain force " +
			"force-with-lease[=] force-if-includes recurse-submodules= thin receive-pack= exec= " +
			"set-upstream progress prune no-verify follow-tags signed[=] atomic push-option= " +
			"ipv4 ipv6 verify no-verbose no-quiet no-repo no-all no-mirror no-delete no-tags " +
			"no-dry-run no-porcelain no-force no-force-with-lease no-force-if-includes " +
			"no-recurse-submodules no-thin no-receive-pack no-exec no-set-upstream no-progress " +
			"no-prune no-follow-tags no-signed no-atomic no-push-option no-ipv4 no-ipv6"}},
	{"reset", &OptionTable{Abbrev: true, Permute: true, Short: "qpN",
		Long: "quiet no-refresh mixed soft hard merge keep recurse-submodules[=] patch " +
			"intent-to-add pathspec-from-file= pathspec-file-nul refresh no-quiet no-mixed " +
			"no-soft no-hard no-merge no-keep no-recurse-submodules no-patch no-intent-to-add " +
			"no-pathspec-from-file no-pathspec-file-nul"}},
	{"clean", &OptionTable{Abbrev: true, Permute: true, Short: "qnfide:xX",
		Long: "quiet dry-run force interactive exclude= no-quiet no-dry-run no-force " +
			"no-interactive"}},
	{"commit", &OptionTable{Abbrev: true, Permute: true, Short: "qvF:m:c:C:st:eS::aiponzu::",
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
			"no-allow-empty-message"}},
	{"merge", &OptionTable{Abbrev: true, Permute: true, Short: "nes:X:m:F:vqS::",
		Long: "stat summary= log[=] squash commit edit cleanup= ff ff-only rerere-autoupdate " +
			"verify-signatures strategy= strategy-option= message= file= into-name= verbose " +
			"quiet abort quit continue allow-unrelated-histories progress gpg-sign[=] autostash " +
			"overwrite-ignore signoff no-verify verify no-stat no-summary no-log no-squash " +
			"no-commit no-edit no-cleanup no-ff no-rerere-autoupdate no-verify-signatures " +
			"no-strategy no-strategy-option no-message no-into-name no-verbose no-quiet no-abort " +
			"no-quit no-continue no-allow-unrelated-histories no-progress no-gpg-sign " +
			"no-autostash no-overwrite-ignore no-signoff"}},
	{"rebase", &OptionTable{Abbrev: true, Permute: true, Short: "qvnC:fmiS::x:r::s:X:",
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
			"no-reapply-cherry-picks"}},
	{"am", &OptionTable{Abbrev: true, Permute: true, Short: "i3qsukmcC:p:rS::",
		Long: "interactive binary 3way quiet signoff utf8 keep keep-non-patch message-id keep-cr " +
			"no-keep-cr scissors quoted-cr= whitespace= ignore-space-change ignore-whitespace " +
			"directory= exclude= include= patch-format= reject resolvemsg= continue resolved " +
			"skip abort quit show-current-patch[=] allow-empty committer-date-is-author-date " +
			"ignore-date rerere-autoupdate gpg-sign[=] empty= rebasing no-interactive no-binary " +
			"no-3way no-quiet no-signoff no-utf8 no-keep no-keep-non-patch no-message-id " +
			"no-scissors no-whitespace no-ignore-space-change no-ignore-whitespace no-directory " +
			"no-exclude no-include no-patch-format no-reject no-resolvemsg " +
			"no-committer-date-is-author-date no-ignore-date no-rerere-autoupdate no-gpg-sign " +
			"no-rebasing"}},
	{"checkout", &OptionTable{Abbrev: true, Permute: true, Short: "b:B:lqmdt::f23p",
		Long: "guess overlay quiet recurse-submodules[=] progress merge conflict= detach track[=] " +
			"force orphan= overwrite-ignore ignore-other-worktrees ours theirs patch " +
			"ignore-skip-worktree-bits pathspec-from-file= pathspec-file-nul no-guess no-overlay " +
			"no-quiet no-recurse-submodules no-progress no-merge no-conflict no-detach no-track " +
			"no-force no-orphan no-overwrite-ignore no-ignore-other-worktrees no-patch " +
			"no-ignore-skip-worktree-bits no-pathspec-from-file no-pathspec-file-nul"}},
	{"switch", &OptionTable{Abbrev: true, Permute: true, Short: "c:C:qmdt::f",
		Long: "create= force-create= guess discard-changes quiet recurse-submodules[=] progress " +
			"merge conflict= detach track[=] force orphan= overwrite-ignore " +
			"ignore-other-worktrees no-create no-force-create no-guess no-discard-changes " +
			"no-quiet no-recurse-submodules no-progress no-merge no-conflict no-detach no-track " +
			"no-force no-orphan no-overwrite-ignore no-ignore-other-worktrees"}},
	{"restore", &OptionTable{Abbrev: true, Permute: true, Short: "s:SWqm23p",
		Long: "source= staged worktree ignore-unmerged overlay quiet recurse-submodules[=] " +
			"progress merge conflict= ours theirs patch ignore-skip-worktree-bits " +
			"pathspec-from-file= pathspec-file-nul no-source no-staged no-worktree " +
			"no-ignore-unmerged no-overlay no-quiet no-recurse-submodules no-progress no-merge " +
			"no-conflict no-patch no-ignore-skip-worktree-bits no-pathspec-from-file " +
			"no-pathspec-file-nul"}},
	{"branch", &OptionTable{Abbrev: true, Permute: true, Short: "vqt::u:radDmMcClfi",
		Long: "verbose quiet track[=] set-upstream set-upstream-to= unset-upstream color[=] " +
			"remotes contains= no-contains= with= without= abbrev[=] all delete move copy list " +
			"show-current create-reflog edit-description force merged= no-merged= column[=] " +
			"sort= points-at= ignore-case recurse-submodules format= no-verbose no-quiet " +
			"no-track no-set-upstream no-set-upstream-to no-unset-upstream no-color no-remotes " +
			"no-abbrev no-all no-delete no-move no-copy no-list no-show-current no-create-reflog " +
			"no-edit-description no-force no-column no-sort no-points-at no-ignore-case " +
			"no-recurse-submodules no-format"}},
	{"rm", &OptionTable{Abbrev: true, Permute: true, Short: "nqfr",
		Long: "dry-run quiet cached force ignore-unmatch sparse pathspec-from-file= " +
			"pathspec-file-nul no-dry-run no-quiet no-cached no-force no-ignore-unmatch " +
			"no-sparse no-pathspec-from-file no-pathspec-file-nul"}},
	{"mv", &OptionTable{Abbrev: true, Permute: true, Short: "vnfk",
		Long: "verbose dry-run force sparse no-verbose no-dry-run no-force no-sparse"}},
	{"stash drop", &OptionTable{Abbrev: true, Permute: true, Short: "q",
		Long: "quiet no-quiet"}},
	{"stash clear", &OptionTable{}},
	{"stash push", &OptionTable{Abbrev: true, Permute: true, Short: "kSpquam:",
		Long: "keep-index staged patch quiet include-untracked all message= pathspec-from-file= " +
			"pathspec-file-nul no-keep-index no-staged no-patch no-quiet no-include-untracked " +
			"no-all no-message no-pathspec-from-file no-pathspec-file-nul"}},
	{"stash save", &OptionTable{Abbrev: true, Permute: true, Short: "kSpqua",
		Long: "keep-index staged patch quiet include-untracked all message= no-keep-index " +
			"no-staged no-patch no-quiet no-include-untracked no-all no-message"}},
	{"stash pop", &OptionTable{Abbrev: true, Permute: true, Short: "q",
		Long: "quiet index no-quiet no-index"}},
	{"stash apply", &OptionTable{Abbrev: true, Permute: true, Short: "q",
		Long: "quiet index no-quiet no-index"}},
	{"stash branch", &OptionTable{}},
	{"worktree add", &OptionTable{Abbrev: true, Permute: true, Short: "fb:B:dq",
		Long: "force detach checkout lock reason= quiet track guess-remote no-force no-detach " +
			"no-checkout no-lock no-reason no-quiet no-track no-guess-remote"}},
	{"worktree remove", &OptionTable{Abbrev: true, Permute: true, Short: "f",
		Long: "force no-force"}},
	{"read-tree", &OptionTable{Abbrev: true, Permute: true, Short: "muinvq",
		Long: "index-output= empty verbose trivial aggressive reset prefix= " +
			"exclude-per-directory= dry-run no-sparse-checkout debug-unpack recurse-submodules[=] " +
			"quiet sparse-checkout no-empty no-verbose no-trivial no-aggressive no-reset " +
			"no-dry-run no-debug-unpack no-recurse-submodules no-quiet"}},
	{"checkout-index", &OptionTable{Abbrev: true, Permute: true, Short: "afqnuz",
		Long: "all ignore-skip-worktree-bits force quiet no-create index stdin temp prefix= " +
			"stage= create no-all no-ignore-skip-worktree-bits no-force no-quiet no-index " +
			"no-stdin no-temp no-prefix"}},
	{"apply", &OptionTable{Abbrev: true, Permute: true, Short: "p:C:R3vqzN",
		Long: "exclude= include= no-add stat allow-binary-replacement binary numstat summary " +
			"check index intent-to-add cached unsafe-paths apply 3way build-fake-ancestor= " +
			"whitespace= ignore-space-change ignore-whitespace reverse unidiff-zero reject " +
			"allow-overlap verbose quiet inaccurate-eof recount directory= allow-empty add " +
			"no-stat no-allow-binary-replacement no-binary no-numstat no-summary no-check " +
			"no-index no-intent-to-add no-cached no-unsafe-paths no-apply no-3way " +
			"no-build-fake-ancestor no-whitespace no-ignore-space-change no-ignore-whitespace " +
			"no-reverse no-unidiff-zero no-reject no-allow-overlap no-verbose no-quiet " +
			"no-inaccurate-eof no-recount no-directory no-allow-empty"}},
	{"cherry-pick", &OptionTable{Abbrev: true, Permute: true, Short: "nesm:xX:S::",
		Long: "quit continue abort skip cleanup= no-commit edit signoff mainline= " +
			"rerere-autoupdate strategy= strategy-option= gpg-sign[=] ff allow-empty " +
			"allow-empty-message keep-redundant-commits commit no-cleanup no-edit no-signoff " +
			"no-mainline no-rerere-autoupdate no-strategy no-strategy-option no-gpg-sign no-ff " +
			"no-allow-empty no-allow-empty-message no-keep-redundant-commits"}},
	{"revert", &OptionTable{Abbrev: true, Permute: true, Short: "nesm:X:S::",
		Long: "quit continue abort skip cleanup= no-commit edit signoff mainline= " +
			"rerere-autoupdate strategy= strategy-option= gpg-sign[=] reference commit " +
			"no-cleanup no-edit no-signoff no-mainline no-rerere-autoupdate no-strategy " +
			"no-strategy-option no-gpg-sign no-reference"}},
	{"update-ref", &OptionTable{Abbrev: true, Permute: true, Short: "m:dz",
		Long: "no-deref stdin create-reflog deref no-stdin no-create-reflog"}},
	{"reflog expire", &OptionTable{Abbrev: true, Permute: true, Short: "",
		Long: "dry-run rewrite updateref verbose expire= expire-unreachable= stale-fix all " +
			"single-worktree no-dry-run no-rewrite no-updateref no-verbose no-stale-fix no-all " +
			"no-single-worktree"}},
	{"reflog delete", &OptionTable{Abbrev: true, Permute: true, Short: "",
		Long: "dry-run rewrite updateref verbose no-dry-run no-rewrite no-updateref no-verbose"}},
	{"gc", &OptionTable{Abbrev: true, Permute: true, Short: "q",
		Long: "quiet prune[=] cruft aggressive auto force keep-largest-pack no-quiet no-prune " +
			"no-cruft no-aggressive no-auto no-force no-keep-largest-pack"}},
	{"prune", &OptionTable{Abbrev: true, Permute: true, Short: "nv",
		Long: "dry-run verbose progress expire= exclude-promisor-objects no-dry-run no-verbose " +
			"no-progress no-expire no-exclude-promisor-objects"}},
	{"config", &OptionTable{Abbrev: true, Permute: true, Short: "f:let:z",
		Long: "global system local worktree file= blob= get get-all get-regexp get-urlmatch " +
			"replace-all add unset unset-all rename-section remove-section list fixed-value edit " +
			"get-color get-colorbool type= bool int bool-or-int bool-or-str path expiry-date " +
			"null name-only includes show-origin show-scope default= no-global no-system " +
			"no-local no-worktree no-file no-blob no-get no-get-all no-get-regexp " +
			"no-get-urlmatch no-replace-all no-add no-unset no-unset-all no-rename-section " +
			"no-remove-section no-list no-fixed-value no-edit no-get-color no-get-colorbool " +
			"no-type no-null no-name-only no-includes no-show-origin no-show-scope no-default"}},
	{"fetch", &OptionTable{Abbrev: true, Permute: true, Short: "vqafmtnj:pPkuo:46",
		Long: "verbose quiet all set-upstream append atomic upload-pack= force multiple tags jobs= " +
			"prefetch prune prune-tags recurse-submodules[=] dry-run write-fetch-head keep " +
			"update-head-ok progress depth= shallow-since= shallow-exclude= deepen= unshallow " +
			"refetch submodule-prefix= recurse-submodules-default= update-shallow refmap= " +
			"server-option= ipv4 ipv6 negotiation-tip= negotiate-only filter= auto-maintenance " +
			"auto-gc show-forced-updates write-commit-graph stdin no-verbose no-quiet no-all " +
			"no-set-upstream no-append no-atomic no-upload-pack no-force no-multiple no-tags " +
			"no-jobs no-prefetch no-prune no-prune-tags no-recurse-submodules no-dry-run " +
			"no-write-fetch-head no-keep no-update-head-ok no-progress no-depth no-shallow-since " +
			"no-shallow-exclude no-deepen no-submodule-prefix no-recurse-submodules-default " +
			"no-update-shallow no-server-option no-ipv4 no-ipv6 no-negotiation-tip " +
			"no-negotiate-only no-filter no-auto-maintenance no-auto-gc no-show-forced-updates " +
			"no-write-commit-graph no-stdin"}},
	{"pull", &OptionTable{Abbrev: true, Permute: true, Short: "vqr::ns:X:S::aftpj::ko:46",
		Long: "verbose quiet progress recurse-submodules[=] rebase[=] stat summary log[=] " +
			"signoff[=] squash commit edit cleanup= ff ff-only verify verify-signatures " +
			"autostash strategy= strategy-option= gpg-sign[=] allow-unrelated-histories all " +
			"append upload-pack= force tags prune jobs[=] dry-run keep depth= shallow-since= " +
			"shallow-exclude= deepen= unshallow update-shallow refmap= server-option= ipv4 ipv6 " +
			"negotiation-tip= show-forced-updates set-upstream no-verbose no-quiet no-progress " +
			"no-recurse-submodules no-rebase no-stat no-summary no-log no-signoff no-squash " +
			"no-commit no-edit no-cleanup no-ff no-verify no-verify-signatures no-autostash " +
			"no-strategy no-strategy-option no-gpg-sign no-allow-unrelated-histories no-all " +
			"no-append no-upload-pack no-force no-tags no-prune no-jobs no-dry-run no-keep " +
			"no-depth no-shallow-since no-shallow-exclude no-deepen no-update-shallow " +
			"no-server-option no-ipv4 no-ipv6 no-negotiation-tip no-show-forced-updates " +
			"no-set-upstream"}},
	{"clone", &OptionTable{Abbrev: true, Permute: true, Short: "vqnlsj:o:b:u:c:46",
		Long: "verbose quiet progress reject-shallow no-checkout bare naked mirror local " +
			"no-hardlinks shared recurse-submodules[=] recursive[=] jobs= template= reference= " +
			"reference-if-able= dissociate origin= branch= upload-pack= depth= shallow-since= " +
			"shallow-exclude= single-branch no-tags shallow-submodules separate-git-dir= config= " +
			"server-option= ipv4 ipv6 filter= also-filter-submodules remote-submodules sparse " +
			"bundle-uri= checkout hardlinks tags no-verbose no-quiet no-progress " +
			"no-reject-shallow no-bare no-naked no-mirror no-local no-shared " +
			"no-recurse-submodules no-recursive no-jobs no-template no-reference " +
			"no-reference-if-able no-dissociate no-origin no-branch no-upload-pack no-depth " +
			"no-shallow-since no-shallow-exclude no-single-branch no-shallow-submodules " +
			"no-separate-git-dir no-config no-server-option no-ipv4 no-ipv6 no-filter " +
			"no-also-filter-submodules no-remote-submodules no-sparse no-bundle-uri"}},
	{"ls-remote", &OptionTable{Abbrev: true, Permute: true, Short: "qtho:",
		Long: "quiet upload-pack= exec= tags heads refs get-url sort= exit-code symref " +
			"server-option= no-quiet no-upload-pack no-exec no-tags no-heads no-refs no-get-url " +
			"no-sort no-exit-code no-symref no-server-option"}},
	{"archive", &OptionTable{Abbrev: true, Permute: true, Short: "o:vl0123456789",
		Long: "output= remote= exec= no-output no-remote no-exec format= prefix= add-file= " +
			"add-virtual-file= worktree-attributes verbose list"}},
	{"difftool", &OptionTable{Abbrev: true, Permute: true, Short: "gdyt:x:",
		Long: "gui dir-diff no-prompt prompt symlinks tool= tool-help trust-exit-code extcmd= " +
			"no-index index no-gui no-dir-diff no-symlinks no-tool no-tool-help " +
			"no-trust-exit-code no-extcmd"}},
	{"grep", &OptionTable{Abbrev: true, Permute: true, Short: "viwaIrEGFPnhHlLzocC:B:A:pWf:e:qO::m:0123456789",
		Long: "cached no-index untracked exclude-standard recurse-submodules invert-match " +
			"ignore-case word-regexp text textconv recursive max-depth= extended-regexp " +
			"basic-regexp fixed-strings perl-regexp line-number column full-name " +
			"files-with-matches name-only files-without-match null only-matching count color[=] " +
			"break heading context= before-context= after-context= threads= show-function " +
			"function-context and or not quiet all-match open-files-in-pager[=] ext-grep " +
			"max-count= index no-cached no-untracked no-exclude-standard no-recurse-submodules " +
			"no-invert-match no-ignore-case no-word-regexp no-text no-textconv no-recursive " +
			"no-extended-regexp no-basic-regexp no-fixed-strings no-perl-regexp no-line-number " +
			"no-column no-full-name no-files-with-matches no-name-only no-files-without-match " +
			"no-null no-only-matching no-count no-color no-break no-heading no-context " +
			"no-before-context no-after-context no-threads no-show-function no-function-context " +
			"no-or no-quiet no-all-match no-open-files-in-pager no-ext-grep no-max-count"}},
}
