package shellcmd

// More wrappers, each running the command after its own words: flock
// (util-linux: a lock file, then a command or -c STRING), taskset (a CPU
// mask or -c list, then a command), unshare and nsenter (namespace
// options, then a command), and script (-c STRING). Option tables from
// util-linux 2.39.
var (
	flockOptions = &OptionTable{Short: "sexunw:oE:Fc:hV", Abbrev: true,
		Long: "shared exclusive unlock nonblock nb timeout= wait= close conflict-exit-code= no-fork verbose command= help version"}
	tasksetOptions = &OptionTable{Short: "acphV", Abbrev: true,
		Long: "all-tasks cpu-list pid help version"}
	unshareOptions = &OptionTable{Short: "muinpUCTrcfw:S:G:R:hV", Abbrev: true,
		Long: "mount[=] uts[=] ipc[=] net[=] pid[=] user[=] cgroup[=] time[=] fork kill-child[=] " +
			"mount-proc[=] map-root-user map-current-user map-user= map-group= map-users= map-groups= " +
			"map-auto setgroups= propagation= monotonic= boottime= keep-caps root= wd= setuid= setgid= " +
			"load-interp= help version"}
	nsenterOptions = &OptionTable{Short: "aAt:m::u::i::n::p::C::U::T::S:G:r::w::W::FZechV", Abbrev: true,
		Long: "all target= mount[=] uts[=] ipc[=] net[=] pid[=] cgroup[=] user[=] time[=] setuid= setgid= " +
			"preserve-credentials root[=] wd[=] wdns= env no-fork follow-context join-cgroup keep-caps help version"}
	scriptOptions = &OptionTable{Short: "aBc:eE:fI:O:qT:t::m:hV", Abbrev: true,
		Long: "append log-io= command= return echo= flush log-in= log-out= quiet log-timing= timing[=] " +
			"logging-format= output-limit= help version"}
)

// asShell is the command line that runs s with sh -c.
func asShell(s Word) []Word {
	return []Word{{Raw: "sh", Value: "sh", Known: true}, {Raw: "-c", Value: "-c", Known: true}, s}
}

func unwrapFlock(args []Word) wrapped {
	l := flockOptions.Parse(args)
	if cs := l.Vals('c', "command"); len(cs) > 0 {
		return wrapped{rest: asShell(cs[len(cs)-1])}
	}
	rest := args[l.Rest:]
	if len(rest) >= 2 && rest[1].Known && rest[1].Value == "-c" && len(rest) >= 3 {
		return wrapped{rest: asShell(rest[2])} // flock FILE -c STRING
	}
	if len(rest) < 2 {
		return wrapped{} // flock FD: locks, runs nothing
	}
	return wrapped{rest: rest[1:]}
}

func unwrapTaskset(args []Word) wrapped {
	l := tasksetOptions.Parse(args)
	rest := args[l.Rest:]
	if l.Has('p', "pid") || len(rest) < 2 {
		return wrapped{} // changes a running process
	}
	return wrapped{rest: rest[1:]} // after the mask or list
}

// unshare and nsenter without a command start a shell, which reads its
// code from stdin.
func unwrapNamespace(base string, args []Word) wrapped {
	t := unshareOptions
	if base == "nsenter" {
		t = nsenterOptions
	}
	rest := args[t.Parse(args).Rest:]
	if len(rest) == 0 {
		return wrapped{rest: []Word{{Raw: "sh", Value: "sh", Known: true}}}
	}
	return wrapped{rest: rest}
}

func unwrapScript(args []Word) wrapped {
	if cs := scriptOptions.Parse(args).Vals('c', "command"); len(cs) > 0 {
		return wrapped{rest: asShell(cs[len(cs)-1])}
	}
	return wrapped{} // an interactive shell of its own; its log file is a write
}
