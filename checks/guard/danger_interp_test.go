package guard

import (
	"testing"

	"github.com/massgen/massgen-hook/checks/internal/checktest"
)

// TestDangerInterpreters: an interpreter given its program on the command
// line or in a heredoc is judged by what the program does: the commands it
// runs are judged like any other, its deletes like rm's, and what its scan
// cannot read (a delete or a command only known at run time, exec of code
// built at run time) is refused. Everyday one-liners pass.
func TestDangerInterpreters(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, "build/a.o", "data.json")
	d := newDanger(t, "")
	const rd, uc = "recursive-delete", "unknown-code"
	const insteadProgram = "Write the program so that the paths it deletes and the commands it runs are plain string literals, or run the commands directly."
	fs := func(cmd string) string { return "`" + cmd + "` would delete the whole filesystem" }
	home := func(cmd string) string { return "`" + cmd + "` would delete the home directory" }
	runDangerCases(t, g, d, []dangerCase{
		{command: `python3 -c "import shutil; shutil.rmtree('/')"`, id: rd, what: fs(`python3 -c "import shutil; shutil.rmtree('/')"`), instead: insteadDeleteSpecific},
		{command: `perl -e 'system("rm -rf /")'`, id: rd, what: fs("rm -rf /"), instead: insteadDeleteSpecific},
		{command: `node -e "require('child_process').execSync('rm -rf ~')"`, id: rd, what: home("rm -rf ~"), instead: insteadDeleteSpecific},
		{command: `ruby -e "require 'fileutils'; FileUtils.rm_rf('/')"`, id: rd, what: fs(`ruby -e "require 'fileutils'; FileUtils.rm_rf('/')"`), instead: insteadDeleteSpecific},
		{command: "python3 <<'EOF'\nimport subprocess\nsubprocess.run(['rm', '-rf', '/'])\nEOF", id: rd, what: fs("'rm' '-rf' '/'"), instead: insteadDeleteSpecific},
		{command: `python3 -c "import os,sys; os.system(sys.argv[1])" 'rm -rf /'`, id: uc,
			what: "`python3 -c \"import os,sys; os.system(sys.argv[1])\" 'rm -rf /'` runs python code that starts a command only known at run time (os.system)", instead: insteadProgram},
		{command: `python3 -c "import shutil,sys; shutil.rmtree(sys.argv[1])" /`, id: rd,
			what: "`python3 -c \"import shutil,sys; shutil.rmtree(sys.argv[1])\" /` deletes sys.argv[1], a path that is only known at run time", instead: insteadUnknownPath},
		{command: `python3 -c "import os,sys; os.remove(sys.argv[1])" x`, id: uc,
			what: "`python3 -c \"import os,sys; os.remove(sys.argv[1])\" x` runs python code that deletes a path only known at run time (`sys.argv[1]`)", instead: insteadProgram},
		{command: `python3 -c "exec(input())"`, id: uc,
			what: "`python3 -c \"exec(input())\"` runs python code that cannot be checked: code built at run time and evaluated (`exec(input())`)", instead: insteadProgram},
		// Everyday one-liners.
		{command: `python3 -c 'import json,sys; print(json.load(sys.stdin)["x"])' < data.json`},
		{command: `node -e 'console.log(1+1)'`},
		{command: `perl -pe 's/a/b/' data.json`},
		{command: `python3 -c "import shutil; shutil.rmtree('build')"`},
		{command: `python3 -c "import subprocess; subprocess.run(['ls', '-la'])"`},
	})
}

// TestProtectedInterpreterReads: a file an interpreter program opens by a
// literal name is read by that program.
func TestProtectedInterpreterReads(t *testing.T) {
	g := checktest.NewGuardEnv(t)
	checktest.WriteFiles(t, g.Project, ".env", "data.json")
	p := newProtected(t, "")
	env := protectedDenial(false, ".env", "**/.env")
	for _, tc := range []struct{ command, want string }{
		{`python3 -c 'print(open(".env").read())'`, env},
		{`node -e "console.log(require('fs').readFileSync('.env', 'utf8'))"`, env},
		{`ruby -e 'puts File.read(".env")'`, env},
		{`python3 -c 'print(open("data.json").read())'`, ""},
	} {
		checkVerdict(t, p, g.MakeCall(t, checktest.CallSpec{Tool: "Bash", Input: checktest.BashInput(tc.command)}), tc.want)
	}
}
