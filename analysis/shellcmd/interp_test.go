package shellcmd

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/massgen/massgen-hook/internal/testrace"
)

func TestLangOf(t *testing.T) {
	for _, tt := range []struct {
		program string
		lang    Lang
		ok      bool
	}{
		{"python", Python, true}, {"python3", Python, true}, {"python3.12", Python, true},
		{"python2.7", Python, true}, {"pypy3", Python, true}, {"pypy", Python, true}, {"ipython3", Python, true},
		{"perl", Perl, true}, {"perl5.36", Perl, true},
		{"ruby", Ruby, true}, {"ruby3.2", Ruby, true}, {"jruby", Ruby, true},
		{"node", JavaScript, true}, {"nodejs", JavaScript, true}, {"deno", JavaScript, true}, {"bun", JavaScript, true},
		{"php", PHP, true}, {"php8.2", PHP, true},
		{"python.", 0, false}, {"python3-config", 0, false}, {"perldoc", 0, false}, {"rubocop", 0, false},
		{"npm", 0, false}, {"bash", 0, false}, {"", 0, false}, {"3", 0, false},
	} {
		lang, ok := LangOf(tt.program)
		if lang != tt.lang || ok != tt.ok {
			t.Errorf("LangOf(%q) = %v, %v; want %v, %v", tt.program, lang, ok, tt.lang, tt.ok)
		}
	}
}

// scanTest is one line of code and what its scan lists (see showScan).
type scanTest struct {
	code string
	want []string
}

func runScanTests(t *testing.T, lang Lang, tests []scanTest) {
	t.Helper()
	for _, tt := range tests {
		got := showScan(ScanCode(lang, tt.code))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: ScanCode(%q)\n got %q\nwant %q", lang, tt.code, got, tt.want)
		}
	}
}

var pythonTests = []scanTest{
	// Everyday one-liners: nothing to report.
	{`import json,sys; print(json.load(sys.stdin)["x"])`, nil},
	{`import sys; print(sys.version)`, nil},
	{`print("hello")`, nil},
	{`import platform; print(platform.system())`, nil},
	{`import os; print(os.getcwd(), os.path.exists("x"), os.environ["HOME"])`, nil},
	{`print("os.system('rm -rf /')")`, nil},                    // a string, not a call
	{`# shutil.rmtree("/")` + "\nprint(1)", nil},               // a comment
	{`x = {"remove": 1}; print(x["remove"], [1].remove)`, nil}, // list.remove is no os.remove
	{`import re; print(re.sub(r"\d", "x", "a1"))`, nil},
	{`sys.stdout.write(open(0).read())`, nil}, // descriptor 0 is stdin
	// Deletes.
	{`import shutil; shutil.rmtree('/')`, []string{"delete-r /"}},
	{`import os; os.remove(".env"); os.unlink("a"); os.rmdir("d"); os.removedirs("e/f")`,
		[]string{"delete .env", "delete a", "delete d", "delete e/f"}},
	{`import shutil as sh; sh.rmtree(path="/home/u")`, []string{"delete-r /home/u"}},
	{`from shutil import rmtree as r; r("/tmp/x")`, []string{"delete-r /tmp/x"}},
	{`from os import *; remove(".env")`, []string{"delete .env"}},
	{`import posix; posix.unlink("x")`, []string{"delete x"}},
	{`from pathlib import Path; Path("a", "b").unlink(); Path("/d").rmdir()`, []string{"delete a/b", "delete /d"}},
	{`import pathlib; pathlib.Path("x").unlink(missing_ok=True)`, []string{"delete x"}},
	{`from send2trash import send2trash; send2trash(["a", "b"])`, []string{"delete-r a", "delete-r b"}},
	{`import os; os.remove(f"{d}/x")`, []string{`delete f"{d}/x"?`}},
	{`import os; os.remove("a" + name)`, []string{`delete "a" + name?`}},
	{`import os; os.remove("a" "b" + 'c')`, []string{"delete abc"}},
	{`import os; [os.remove(f) for f in os.listdir(".")]`, []string{"delete f?"}},
	{`import os; f = os.remove; f("a"); list(map(f, ["b"]))`, []string{"delete a", "delete f?"}},
	{`import os; list(map(os.unlink, files))`, []string{"delete os.unlink?"}},
	{`for p in paths: p.unlink()`, []string{"delete p.unlink()?"}},
	{`import os; os.rename(".env", "/tmp/e")`, []string{"move-r .env", "write-r /tmp/e", "read-r .env"}},
	// Reads and writes.
	{`print(open(".env").read())`, []string{"read .env"}},
	{`with open("out.txt", "w") as f: f.write("x")`, []string{"write out.txt"}},
	{`open("log", mode="a+")`, []string{"write log", "read log"}},
	{`open("log", m)`, []string{"write log", "read log"}},
	{`from pathlib import Path; print(Path.home()); Path(".env").read_text()`, []string{"read .env"}},
	{`import shutil; shutil.copytree("src", "/tmp/dst")`, []string{"write-r /tmp/dst", "read-r src"}},
	{`import os; os.chmod("run.sh", 0o755)`, []string{"meta run.sh"}},
	// Commands.
	{`import os; os.system("rm -rf /")`, []string{"sh rm -rf /"}},
	{`import os; os.system('echo "a b" \'c\'\n')`, []string{"sh echo \"a b\" 'c'\n"}},
	{`import os; os.popen(cmd).read()`, []string{"sh cmd?"}},
	{`import subprocess; subprocess.run(["rm", "-rf", "/"])`, []string{"run rm -rf /"}},
	{`import subprocess; subprocess.run("ls")`, []string{"run ls"}},
	{`import subprocess as sp; sp.check_output("ls -l | wc", shell=True)`, []string{"sh ls -l | wc"}},
	{`import subprocess; subprocess.Popen(["ls", d])`, []string{"run ls d? ?"}},
	{`import subprocess; subprocess.call(args, shell=True)`, []string{"sh args?"}},
	{`import subprocess; subprocess.run(*a)`, []string{"run ?"}},
	{`import os; os.execvp("rm", ["rm", "-rf", "/"])`, []string{"run rm -rf /"}},
	{`import os; os.execl("/bin/rm", "rm", "-rf", "/")`, []string{"run /bin/rm -rf /"}},
	{`import os; os.spawnlp(os.P_WAIT, "ls", "ls", "-l")`, []string{"run ls -l"}},
	{`import pty; pty.spawn("/bin/sh")`, []string{"run /bin/sh"}},
	{`import asyncio; asyncio.create_subprocess_exec("ls", "-l")`, []string{"run ls -l"}},
	// Code the scan reads, and code it cannot.
	{`exec("import os; os.remove('z')")`, []string{"delete z"}},
	{`exec(open("x.py").read())`, []string{"read x.py", "opaque code built at run time and evaluated"}},
	{`eval(compile(src, "f", "exec"))`, []string{"opaque code built at run time and evaluated", "opaque code built at run time and evaluated"}},
	{`__import__("os").system("id")`, []string{"sh id"}},
	{`__import__("o"+"s").system("id")`, []string{"sh id"}},
	{`__import__(name).system("id")`, []string{"sh id", "opaque a module loaded by a name computed at run time"}},
	{`import importlib; importlib.import_module(m)`, []string{"opaque a module loaded by a name computed at run time"}},
	{`import os; getattr(os, "system")("id")`, []string{"opaque os used as a value the scan cannot follow"}},
	{`import os as o, shutil; a, b = o, shutil`, []string{"opaque os used as a value the scan cannot follow", "opaque shutil used as a value the scan cannot follow"}},
	{`import os; m = os; m.system("id")`, []string{"sh id"}},
	{`import sys; sys.modules["os"].system("id")`, []string{"sh id", "opaque a module taken from sys.modules"}},
	{`import ctypes; ctypes.CDLL(None).system(b"id")`, []string{"sh id", "opaque C functions called through ctypes"}},
	{`().__class__.__bases__[0].__subclasses__()`, []string{"opaque the class tree reached by name"}},
	{`print(f"{os.system('id')}")`, []string{"sh id"}},
	{`print(f"{x!r:>{os.remove('w')}}")`, []string{"delete w"}},
	{`print(f"{'{'}{ {'a': os.system('id')}['a'] }")`, []string{"sh id"}},
	{"ｅｘｅｃ('x')", []string{"opaque a name with non-ASCII letters, which Python may read as another name"}},
	{`x = exec; x(s)`, []string{"opaque code built at run time and evaluated"}},
	{`list(map(exec, codes))`, []string{"opaque exec named without a call, so what it runs is not known"}},
}

var jsTests = []scanTest{
	{`console.log(1+1)`, nil},
	{`console.log(JSON.parse(require('fs').readFileSync(0, 'utf8')).version)`, nil},
	{`const re = /exec\(/; console.log(re.exec("exec(x)"))`, nil}, // RegExp.exec
	{`console.log(require("os").platform(), require("path").join("a", "b"))`, nil},
	{`// require('child_process').execSync('rm -rf /')` + "\nconsole.log(1)", nil},
	{`const o = {exec: 1, rmSync: 2}; console.log(o.exec)`, nil},
	{`x = a / b / c`, nil},
	// Deletes.
	{`require('fs').rmSync('/', {recursive:true})`, []string{"delete-r /"}},
	{`require('fs').rmSync('dist', {force: true})`, []string{"delete dist"}},
	{`require('fs').rmSync('dist', opts)`, []string{"delete-r dist"}},
	{`fs.rmSync("dist", {recursive: true, force: true})`, []string{"delete-r dist"}},
	{`const fs = require('node:fs'); fs.unlinkSync('.env')`, []string{"delete .env"}},
	{`import {promises as p} from 'fs'; await p.rm("d", {recursive: true})`, []string{"delete-r d"}},
	{`require('fs/promises').unlink("x")`, []string{"delete x"}},
	{`const {rmSync} = require("fs"); rmSync("a")`, []string{"delete a"}},
	{`require("fs-extra").removeSync("build")`, []string{"delete-r build"}},
	{`const fse = require("fs-extra"); fse.rmSync("b", {recursive: true})`, []string{"delete-r b"}},
	{`require("rimraf").sync("node_modules")`, []string{"delete-r node_modules"}},
	{`require("shelljs").rm("-rf", "/tmp/a", "b")`, []string{"delete-r /tmp/a", "delete-r b"}},
	{`Deno.removeSync("/", {recursive: true})`, []string{"delete-r /"}},
	{`await Bun.file("x").delete()`, []string{"delete x"}},
	{`files.forEach(f => fs.unlinkSync(f))`, []string{"delete f?"}},
	{`files.forEach(fs.unlinkSync)`, []string{"delete fs.unlinkSync?"}},
	{`lib.unlinkSync("q")`, []string{"delete q"}},
	// Reads and writes.
	{`console.log(require('fs').readFileSync('.env','utf8'))`, []string{"read .env"}},
	{"require('fs').writeFileSync(`out.txt`, data)", []string{"write out.txt"}},
	{`require('fs').copyFileSync('.env', '/tmp/e')`, []string{"write /tmp/e", "read .env"}},
	{`console.log(require('./secrets.json').key)`, []string{"read ./secrets.json"}},
	{`Deno.readTextFileSync(".env")`, []string{"read .env"}},
	// Commands.
	{`require('child_process').execSync('rm -rf /')`, []string{"sh rm -rf /"}},
	{`require("child_process")["exec"]("id")`, []string{"sh id"}},
	{`const {execSync: run} = require('node:child_process'); run("ls")`, []string{"sh ls"}},
	{"const {execSync: run} = require('node:child_process'); run(`ls ${x}`)", []string{"sh `ls ${x}`?"}},
	{`import cp from 'child_process'; cp.execFileSync('git', ['status'])`, []string{"run git status"}},
	{`import * as cp from 'child_process'; cp.spawn('rm', ['-rf', 'x'], {shell: true})`, []string{"sh rm -rf x"}},
	{`import {spawn} from 'child_process'; spawn('ls', {stdio: 'inherit'})`, []string{"run ls"}},
	{`require('child_process').spawnSync(cmd, args)`, []string{"run cmd? ?"}},
	{`const cp = require('child_process'); cp.exec("a" + "b")`, []string{"sh ab"}},
	{`child_process.execSync("id")`, []string{"sh id"}}, // node -e sees built-in modules as globals
	{"require('child_process').execSync`id`", []string{"sh id"}},
	{"Bun.$`rm -rf /`", []string{"sh rm -rf /"}},
	{`Bun.spawnSync(["ls", "-l"])`, []string{"run ls -l"}},
	{`new Deno.Command("rm", {args: ["-rf", "/"]}).outputSync()`, []string{"run rm -rf /"}},
	{`import {$} from 'zx'; await $` + "`ls`", []string{"sh ls"}},
	// Code.
	{`eval("require('fs').rmSync('q')")`, []string{"delete q"}},
	{`eval(x)`, []string{"opaque code built at run time and evaluated"}},
	{`(0, eval)(x)`, []string{"opaque eval named without a call, so what it runs is not known"}},
	{`new Function("a", "return require('fs').unlinkSync(a)")`, []string{"delete a?"}},
	{`setTimeout("require('child_process').execSync('id')", 1); setTimeout(f, 1)`, []string{"sh id"}},
	{`const m = 'child_process'; require(m).exec('id')`, []string{"opaque a module loaded by a name computed at run time"}},
	{`require("child_process")[k]("id")`, []string{"opaque a computed member of child_process"}},
	{`import('child_process').then(m => m.exec('id'))`, []string{"opaque child_process loaded asynchronously, where the scan cannot follow it"}},
	{`[require][0]('child_process')`, []string{"opaque require named without a call, so what it runs is not known"}},
	{`f(require('child_process'))`, []string{"opaque child_process loaded where the scan cannot follow it"}},
	{`"".constructor.constructor("return process")().mainModule.require("child_process").execSync("id")`,
		[]string{"sh id", "opaque process used as a value the scan cannot follow"}},
	{`process.binding("spawn_sync")`, []string{"opaque node's internal bindings"}},
	{`\u0065val(x)`, []string{"opaque code built at run time and evaluated"}},
	{`x = /'/.test(y); require("fs").rmSync("z")`, []string{"delete z"}},
	{"x = `${require('fs').unlinkSync('t')}`", []string{"delete t"}},
}

var perlTests = []scanTest{
	{`print "hello"`, nil},
	{`s/a/b/`, nil},
	{`s/a/b/g; tr/a-z/A-Z/; y/x/y/`, nil},
	{`while (<>) { print if /system\(/ }`, nil},
	{`print join(",", map { $_ * 2 } @ARGV)`, nil},
	{`$h{system} = 1; %h = (unlink => 2); print $h{q}`, nil},
	{`if (-s "file") { print "y" }`, nil},
	{`print "mail me at a\@b.c"`, nil},
	{`eval { die "x" }; print $@ if $@`, nil},
	{`print q{system("id")}, 'unlink "x"'`, nil},
	{`@a = sort { $a <=> $b } @a; print "@a"`, nil},
	// Deletes.
	{`unlink ".env" or die`, []string{"delete .env"}},
	{`unlink("a", "b"); rmdir "d"`, []string{"delete a", "delete b", "delete d"}},
	{`unlink qw(a b)`, []string{"delete a", "delete b"}},
	{`unlink glob("*.tmp")`, []string{`delete glob?`}},
	{`unlink <*.tmp>`, []string{"delete <*.tmp>?"}},
	{`unlink for @files`, []string{"delete unlink?"}}, // $_
	{`use File::Path qw(rmtree); rmtree("/tmp/x")`, []string{"delete-r /tmp/x"}},
	{`File::Path::remove_tree("a", {verbose => 1})`, []string{"delete-r a"}},
	{`use Path::Tiny; path("d")->remove_tree`, []string{"delete-r d"}},
	{`rename "a", "b"`, []string{"move-r a", "write-r b", "read-r a"}},
	// Reads and writes.
	{`open(my $fh, "<", ".env"); print <$fh>`, []string{"read .env"}},
	{`open(F, ".env") || die; print <F>`, []string{"read .env"}},
	{`open F, ">out.txt"`, []string{"write out.txt"}},
	{`open(my $f, ">>", "log.txt") or die; print $f "x"`, []string{"write log.txt"}},
	{`open(my $f, "<:encoding(UTF-8)", "a")`, []string{"read a"}},
	{`open(my $f, "<", \$buf)`, nil},
	{`open(F, $file)`, []string{"write $file?", "read $file?", "sh $file?"}},
	// Commands.
	{`system("rm -rf /")`, []string{"sh rm -rf /"}},
	{`system "rm", "-rf", "/"`, []string{"run rm -rf /"}},
	{`system(@cmd) == 0 or die`, []string{"run @cmd? ?"}},
	{`exec { "sh" } "sh", "-c", "id"`, []string{"run ?"}},
	{"my $x = `ls -l $dir`; print $x", []string{"sh `ls -l $dir`?"}},
	{`print qx{id}, qx'echo $HOME'`, []string{"sh id", "sh echo $HOME"}},
	{`open(F, "cat /etc/passwd |"); print <F>`, []string{"sh cat /etc/passwd"}},
	{`open(my $p, "-|", "ls", "-l")`, []string{"run ls -l"}},
	{`open(my $p, "|-", "sort")`, []string{"sh sort"}},
	{`use IPC::Open3; open3($w, $r, $e, "id")`, []string{"sh id"}},
	{`CORE::system("id")`, []string{"sh id"}},
	{`print readpipe("id")`, []string{"sh id"}},
	{"print <<`EOC`;\nid\nEOC", []string{"sh id"}},
	// Code.
	{`eval "system('id')"`, []string{"sh id"}},
	{`eval $code`, []string{"opaque code built at run time and evaluated"}},
	{`s/x/system("id")/e`, []string{"sh id"}},
	{`s{x}{unlink "f"}e`, []string{"delete f"}},
	{`s/x/$y/ee`, []string{"opaque a replacement evaluated twice (s///ee): code built at run time"}},
	{`print "@{[ system('id') ]}"`, []string{"sh id"}},
	{`print "${\ unlink('f')}"`, []string{"delete f"}},
	{`print "$h{unlink 'g'}"`, []string{"delete g"}},
	{`m/(?{ system("id") })/`, []string{"opaque code inside a pattern"}},
	{"print <<EOF;\nhello @{[ unlink 'h' ]}\nEOF\nsystem(\"late\")", []string{"delete h", "sh late"}},
	{"print <<'EOF';\n@{[ unlink 'h' ]}\nEOF\n", nil},
	{"=pod\n\nsystem('x')\n\n=cut\nprint 1", nil},
	{"print 1;\n__END__\nsystem('x')", nil},
	{`my $f = \&CORE::unlink; $f->("x")`, []string{"delete &CORE::unlink?"}},
	{`main->can("system")->("id")`, []string{`run main->can("system")? ?`}},
	{`do "setup.pl"; require "lib.pl"; require Foo::Bar`, []string{"read setup.pl", "read lib.pl"}},
}

var rubyTests = []scanTest{
	{`puts 1`, nil},
	{`puts "hello #{1 + 1}"`, nil},
	{`h = {system: 1, exec: 2}; a = x ? b : c; puts h[:system]`, nil},
	{`x = y / 2; z = /ab/ =~ s`, nil},
	{`puts ARGF.read.upcase`, nil},
	{`puts [1, 2].delete(1), "abc".delete("b")`, nil}, // Array and String delete
	{`puts 'system("id")', %q(unlink "x")`, nil},
	{"=begin\nsystem('x')\n=end\nputs 1", nil},
	// Deletes.
	{`FileUtils.rm_rf('/')`, []string{"delete-r /"}},
	{`require 'fileutils'; FileUtils.rm_rf('/home/user')`, []string{"delete-r /home/user"}},
	{`FileUtils.rm_r %w[a b], force: true`, []string{"delete-r a", "delete-r b"}},
	{`FileUtils::rm "f"`, []string{"delete f"}},
	{`include FileUtils; rm_rf "build"`, []string{"delete-r build"}},
	{`File.delete ".env" if File.exist?(".env")`, []string{"delete .env"}},
	{`%w[a b].each { |f| File.unlink(f) }`, []string{"delete f?"}},
	{`Pathname.new("x").rmtree`, []string{"delete-r x"}},
	{`Dir.rmdir("d")`, []string{"delete d"}},
	// Reads and writes.
	{`puts File.read(".env")`, []string{"read .env"}},
	{`File.open("out", "w") { |f| f.puts 1 }`, []string{"write out"}},
	{`File.write("log", "x")`, []string{"write log"}},
	{`puts IO.readlines("a")`, []string{"read a"}},
	// Commands.
	{"`rm -rf /home/user`", []string{"sh rm -rf /home/user"}},
	{`system("ls", "-l")`, []string{"run ls -l"}},
	{`system "ls -l | wc"`, []string{"sh ls -l | wc"}},
	{`system({"A" => "1"}, "env")`, []string{"sh env"}},
	{`system(["ls", "listing"], "-l")`, []string{"run ls -l"}},
	{`x = %x(id); puts "#{x}"`, []string{"sh id"}},
	{`puts "#{` + "`id`" + `}"`, []string{"sh id"}},
	{`IO.popen(["ls", "-l"]).read`, []string{"run ls -l"}},
	{`IO.popen("ls | wc").read`, []string{"sh ls | wc"}},
	{`open("|id").read`, []string{"sh id"}},
	{`IO.read("|id")`, []string{"sh id"}},
	{`require 'open-uri'; puts open("https://example.com").read`, nil},
	{`Open3.capture2("grep x", stdin_data: s)`, []string{"sh grep x"}},
	{`Process.spawn("make", "all")`, []string{"run make all"}},
	{"puts <<~EOS\n  #{system(\"id\")}\nEOS", []string{"sh id"}},
	{"puts <<-'EOS'\n  #{system(\"id\")}\n  EOS\n", nil},
	// Code.
	{`eval("File.delete('a')")`, []string{"delete a"}},
	{`eval(code)`, []string{"opaque code built at run time and evaluated"}},
	{`send(:system, "id")`, []string{"sh id"}},
	{`Kernel.send(m, "id")`, []string{"opaque a method called by a name computed at run time"}},
	{`m = method(:system); m.call("id")`, []string{"run method(:system)? ?"}},
	{`alias sys system; sys "id"`, []string{"sh id"}},
	{`Object.const_get(:FileUtils).rm_rf("/")`, []string{"delete-r /"}},
	{`Object.const_get(name).rm_rf("/")`, []string{"delete-r /", "opaque a module loaded by a name computed at run time"}},
}

var phpTests = []scanTest{
	{`echo strtoupper("hi");`, nil},
	{`echo json_encode(["a" => 1]), PHP_EOL;`, nil},
	{`var_dump(function_exists("exec"));`, nil},
	{`echo 'system("id")', "unlink $x";`, nil},
	{`$a = ['system' => 1]; echo $a['system'];`, nil},
	{`// system("id")` + "\n# unlink('x')\n/* exec('y') */ echo 1;", nil},
	{`echo 1; ?> system("id") <?php echo 2;`, nil},
	{`array_map(fn($x) => $x * 2, [1, 2]); array_map(null, $a);`, nil},
	// Deletes.
	{`unlink(".env");`, []string{"delete .env"}},
	{`UnLink('x'); \unlink('y'); rmdir("d");`, []string{"delete x", "delete y", "delete d"}},
	{`array_map("unlink", glob("*"));`, []string{`delete array_map("unlink", glob("*"))?`}},
	{`foreach (glob("*") as $f) unlink($f);`, []string{"delete $f?"}},
	{`rename(".env", "/tmp/e");`, []string{"move-r .env", "write-r /tmp/e", "read-r .env"}},
	// Reads and writes.
	{`echo file_get_contents(".env");`, []string{"read .env"}},
	{`readfile('/etc/passwd'); file_put_contents("out", "x");`, []string{"read /etc/passwd", "write out"}},
	{`$f = fopen("log", "a");`, []string{"write log"}},
	{`echo file_get_contents("php://stdin"), file_get_contents("https://example.com/x");`, nil},
	{`echo file_get_contents("php://filter/read=convert.base64-encode/resource=.env");`, []string{"read .env"}},
	{`readfile("file:///etc/passwd"); $f = fopen("php://memory", "w+");`, []string{"read /etc/passwd"}},
	{`include "config.php"; require_once('lib.php');`, []string{"read config.php", "read lib.php"}},
	// Commands.
	{`system("rm -rf /");`, []string{"sh rm -rf /"}},
	{`echo shell_exec("ls " . "-l"), exec('id'), passthru("w");`, []string{"sh ls -l", "sh id", "sh w"}},
	{"echo `ls $d`;", []string{"sh `ls $d`?"}},
	{`\SYSTEM('y');`, []string{"sh y"}},
	{`proc_open(["ls", "-l"], [], $p);`, []string{"run ls -l"}},
	{`proc_open("ls | wc", [], $p);`, []string{"sh ls | wc"}},
	{`pcntl_exec("/bin/ls", ["-l"]);`, []string{"run /bin/ls -l"}},
	{`call_user_func("system", "id");`, []string{"sh id"}},
	{`call_user_func_array("exec", ["id"]);`, []string{"sh id"}},
	{`echo "{${system('id')}}";`, []string{"sh id"}},
	{`echo "{$o->m(exec('id'))}";`, []string{"sh id"}},
	{"$x = <<<EOT\n{$a}\nEOT;\nshell_exec(\"late\");", []string{"sh late"}},
	{"$x = <<<'EOT'\n{${system('id')}}\nEOT;\n", nil},
	// Code.
	{`eval('unlink("q");');`, []string{"delete q"}},
	{`eval($code);`, []string{"opaque code built at run time and evaluated"}},
	{`$f = "system"; $f("id");`, []string{"opaque the function system named in a string, which PHP can call by that name",
		"opaque a call of a function named by a variable"}},
	{`call_user_func($f, "id");`, []string{"opaque a function named at run time"}},
	{`$o->$m("id");`, []string{"opaque a method named by a variable"}},
	{`assert($code);`, []string{"opaque assert of a variable, which may hold code"}},
	{`preg_replace('/x/e', 'system("id")', $s);`, []string{"opaque a replacement evaluated as code (the e modifier)"}},
}

func TestScanCodePython(t *testing.T)     { runScanTests(t, Python, pythonTests) }
func TestScanCodeJavaScript(t *testing.T) { runScanTests(t, JavaScript, jsTests) }
func TestScanCodePerl(t *testing.T)       { runScanTests(t, Perl, perlTests) }
func TestScanCodeRuby(t *testing.T)       { runScanTests(t, Ruby, rubyTests) }
func TestScanCodePHP(t *testing.T)        { runScanTests(t, PHP, phpTests) }

// Words carry the argument's source, so that a guard can quote it.
func TestScanCodeWords(t *testing.T) {
	s := ScanCode(Python, `import os; os.remove("a\x41" + 'b'); os.remove(p)`)
	want := []Effect{
		{Op: Delete, Path: Word{Raw: `"a\x41" + 'b'`, Value: "aAb", Known: true}},
		{Op: Delete, Path: Word{Raw: "p", Value: "p"}},
	}
	if !reflect.DeepEqual(s.Effects, want) {
		t.Errorf("effects %+v, want %+v", s.Effects, want)
	}
	r := ScanCode(JavaScript, `require("child_process").execFileSync("git", ["log", n])`).Runs
	if len(r) != 1 || r[0].Call != "child_process.execFileSync" || r[0].Shell || r[0].Known || len(r[0].Argv) != 3 ||
		!reflect.DeepEqual(r[0].Argv[2], Word{Raw: "n", Value: "n"}) {
		t.Errorf("runs %+v", r)
	}
}

// String literals decode as each language decodes them.
func TestScanCodeStrings(t *testing.T) {
	for _, tt := range []struct {
		lang  Lang
		code  string
		value string
		known bool
	}{
		{Python, `os.system("a\tb\\c\x41\u00e9\101\q")`, "a\tb\\cAéA\\q", true},
		{Python, `os.system(r"a\tb\"")`, `a\tb\"`, true},
		{Python, `os.system(b"a\xffb")`, "a\xffb", true},
		{Python, `os.system("""a'"b""")`, `a'"b`, true},
		{Python, `os.system(f"a{{b}}")`, "a{b}", true},
		{Python, `os.system(f"a{b}")`, `f"a{b}"`, false},
		{Python, `os.system("\N{BULLET}")`, `"\N{BULLET}"`, false},
		{JavaScript, `child_process.execSync('a\tb\x41\u{e9}\u0041\q\0')`, "a\tbAéAq\x00", true},
		{JavaScript, "child_process.execSync(`a\\`b`)", "a`b", true},
		{Perl, `system('a\'b\\c\n')`, `a'b\c\n`, true},
		{Perl, `system("a\tb\x41\x{e9}\101\$x\@y")`, "a\tbAéA$x@y", true},
		{Perl, `system(q{a{b}c})`, "a{b}c", true},
		{Perl, `system(qq<a\>b>)`, "a>b", true},
		{Perl, `system("a$x")`, `"a$x"`, false},
		{Perl, `system("\Uid")`, `"\Uid"`, false},
		{Perl, `system("a" . 'b')`, "ab", true},
		{Ruby, `system('a\'b\n')`, `a'b\n`, true},
		{Ruby, `system("a\tb\s\u00e9\x41")`, "a\tb éA", true},
		{Ruby, `system(%Q(a(b)#{1}))`, `%Q(a(b)#{1})`, false},
		{Ruby, `system("a" 'b')`, "ab", true},
		{PHP, `system('a\'b\n')`, `a'b\n`, true},
		{PHP, `system("a\tb\$c\q\x41")`, "a\tb$c\\qA", true},
		{PHP, `system("a$b")`, `"a$b"`, false},
	} {
		s := ScanCode(tt.lang, tt.code)
		if len(s.Runs) != 1 {
			t.Errorf("%s %q: runs %+v", tt.lang, tt.code, s.Runs)
			continue
		}
		if w := s.Runs[0].Line; w.Value != tt.value || w.Known != tt.known {
			t.Errorf("%s %q: %q known %v; want %q known %v", tt.lang, tt.code, w.Value, w.Known, tt.value, tt.known)
		}
	}
}

// Code nested in eval is followed a few levels deep, then reported.
func TestScanCodeEvalDepth(t *testing.T) {
	code := `os.remove("x")`
	for range maxCodeDepth {
		code = "exec(" + pyQuote(code) + ")"
	}
	if got := showScan(ScanCode(Python, code)); !slices.Equal(got, []string{"delete x"}) {
		t.Errorf("%d levels: %q", maxCodeDepth, got)
	}
	code = "exec(" + pyQuote(code) + ")"
	if got := showScan(ScanCode(Python, code)); !slices.Equal(got, []string{"opaque evaluated code nested too deep to follow"}) {
		t.Errorf("%d levels: %q", maxCodeDepth+1, got)
	}
}

func pyQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// pathological are inputs built to make a careless scan superlinear:
// deep nesting, long chains, unterminated literals, many look-aheads.
func pathological(n int) map[string]struct {
	lang Lang
	code string
} {
	rep := strings.Repeat
	return map[string]struct {
		lang Lang
		code string
	}{
		"nested calls":         {Python, rep("os.remove(", n) + rep(")", n)},
		"nested parens":        {Python, "os.system(" + rep("(", n) + `"x"` + rep(")", n+1)},
		"nested lists":         {JavaScript, "cp.execFileSync(" + rep("[", n) + rep("]", n) + ")"},
		"long concatenation":   {Perl, "system(" + rep(`"a" . `, n) + `"b")`},
		"parenless chain":      {Perl, rep("unlink ", n) + `"x"`},
		"parenless list":       {Ruby, "system " + rep(`"a", `, n) + `"b"`},
		"unterminated strings": {Python, rep(`"a`+"\n", n)},
		"f-string nesting":     {Python, rep(`f"{`, 20) + rep("x", n) + rep(`}"`, 20)},
		"template nesting":     {JavaScript, rep("`${", 20) + rep("x", n) + rep("}`", 20)},
		"member chain":         {JavaScript, "a" + rep(".b", n) + "()"},
		"many heredocs":        {Ruby, rep("<<A ", n) + "\nA\n"},
		"open brackets":        {PHP, rep("f(", n)},
		"perl quote ops":       {Perl, rep("q", n)},
		"perl deref":           {Perl, `"` + rep("$", n) + `x"`},
		"php includes":         {PHP, rep("include ", n) + "'x';"},
		"js imports":           {JavaScript, rep("import ", n) + "'x'"},
		"ruby percent":         {Ruby, rep("%(", n)},
		"comment lines":        {JavaScript, rep("//x\n", n)},
		"unmatched closers":    {JavaScript, rep(")]}", n)},
		"options hash":         {JavaScript, "fs.rmSync(x, {" + rep("a: 1, ", n) + "})"},
		"eval literals":        {Python, rep(`exec("exec('1')");`, n)},
	}
}

// Pathological inputs stay within the scan's linear work budget: none is
// reported as too complex. (The budget itself is what bounds the time;
// this shows that it is not what ordinary worst cases hit.)
//
// It starts no goroutine, and shellcmd none: it skips itself under -race,
// which made it six times slower, and make test runs it without.
func TestScanCodeLinear(t *testing.T) {
	testrace.Skip(t)
	for name, p := range pathological(20000) {
		s := ScanCode(p.lang, p.code)
		for _, o := range s.Opaque {
			if strings.Contains(o.What, "too complex") {
				t.Errorf("%s: %s", name, o.What)
			}
		}
	}
}

// A look-ahead that does not consume what it reads could be driven
// quadratic; the budget stops it and says so.
func TestScanCodeBudget(t *testing.T) {
	code := strings.Repeat("(/[", 20000) // each / probes a pattern to the end of the line
	s := ScanCode(JavaScript, code)
	found := false
	for _, o := range s.Opaque {
		found = found || strings.Contains(o.What, "too complex")
	}
	if !found {
		t.Errorf("no budget finding in %q", showScan(s))
	}
}

func FuzzScanCode(f *testing.F) {
	for lang, tests := range map[Lang][]scanTest{Python: pythonTests, JavaScript: jsTests, Perl: perlTests,
		Ruby: rubyTests, PHP: phpTests} {
		for _, tt := range tests {
			f.Add(uint8(lang), tt.code)
		}
	}
	for _, p := range pathological(50) {
		f.Add(uint8(p.lang), p.code)
	}
	f.Fuzz(func(t *testing.T, lang uint8, code string) {
		l := Lang(lang%5 + 1)
		s := ScanCode(l, code)
		if again := ScanCode(l, code); !slices.Equal(showScan(s), showScan(again)) {
			t.Fatalf("%s %q: not deterministic:\n%q\n%q", l, code, showScan(s), showScan(again))
		}
		// Each finding stands for source text, and evaluated literals
		// are followed a bounded number of levels deep.
		if n := len(s.Effects) + len(s.Runs) + len(s.Opaque); n > (maxCodeDepth+1)*(len(code)+2) {
			t.Fatalf("%s %q: %d findings", l, code, n)
		}
		for _, r := range s.Runs {
			if r.Known && (r.Shell && !r.Line.Known || !r.Shell && len(r.Argv) == 0) {
				t.Fatalf("%s %q: run %+v is Known without a known command", l, code, r)
			}
		}
	})
}

// benchCode is a typical interpreter one-liner of an agent, about 200
// characters.
const benchCode = `import json, subprocess, sys; data = json.load(open("package.json")); out = subprocess.run(["git", "log", "-1", "--format=%H"], capture_output=True, text=True); print(data["version"], out.stdout.strip())`

func BenchmarkScanCode(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchCode)))
	for b.Loop() {
		s := ScanCode(Python, benchCode)
		if len(s.Runs) != 1 || len(s.Effects) != 1 {
			b.Fatal(showScan(s))
		}
	}
}
