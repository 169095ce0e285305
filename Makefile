# massgen-hook: build, test, demo, benchmark.
# `make demo` and `make test` are the README's Quick start; .ci/run runs `make test`.

BIN      := bin/massgen-hook
PKG      := ./cmd/massgen-hook
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS  := -s -w -X github.com/massgen/massgen-hook/cli.version=$(VERSION)
GOFLAGS_BUILD := -trimpath -ldflags "$(LDFLAGS)"

.PHONY: build release test lint unit unit-race unit-guards unit-e2e test-real demo bench peer fuzz schema clean

## build: the static binary bin/massgen-hook (CGO_ENABLED=0).
build:
	CGO_ENABLED=0 go build $(GOFLAGS_BUILD) -o $(BIN) $(PKG)

## release: static binaries for linux and darwin on amd64 and arm64 in
## dist/, named massgen-hook_VERSION_OS_ARCH[.exe], with dist/SHA256SUMS.
## PLATFORMS picks others (PLATFORMS=linux/amd64 make release).
release:
	VERSION=$(VERSION) sh scripts/release.sh

## test: drift checks (gofmt, vet, go.mod), then every test: each package's own tests with the
## race detector, and beside them the packages that drive whole hook processes (cmd/massgen-hook's
## testscripts and multi-process tests, the peer tables, the Python yardstick: thousands of
## processes) without it: their work is in the processes they start, and a race-instrumented
## test harness only slows them down. Tests wait on conditions, never sleeps (docs/development.md,
## "Tests that do not wait").
test: lint unit

# vet and the tests build with -trimpath: what they compile is then named by its content, not by
# the folder it was cloned into, so a fresh clone reuses what an earlier run on the machine (in
# any clone) compiled, as CI's cached build folder does. The first run after -trimpath is new to a
# build cache compiles the standard library and the modules once more. They link without DWARF
# (-ldflags=-w): the go command caches what it compiles, not what it links, so every run links
# every test binary and the hook binaries the tests build again, and without DWARF each link costs
# a third less (a seventh of make test's CPU went to the linker). Stack traces keep their file
# names and lines; a debugger would want a build of its own. A test that builds with its own
# -ldflags (the release script's) overrides this.
test lint unit unit-race unit-guards unit-e2e: export GOFLAGS := $(filter-out -trimpath -ldflags=-w,$(GOFLAGS)) -trimpath -ldflags=-w

# The release builds for macOS too: vet compiles every package for it, so code that holds only on
# Linux (a stat field's name, a system call) fails here, not at release.
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	go vet ./...
	GOOS=darwin go vet ./...
	go mod tidy -diff

E2E := ./cmd/massgen-hook ./bench/peer ./bench/python ./bench/natslatency
E2E_RE := /(cmd/massgen-hook|bench/peer|bench/python|bench/natslatency)$$
# The guards treat /tmp as scratch space, and their own tests (checks and its sub-packages) make
# folders under /tmp expecting just that; so do confine's, whose sandbox makes $TMPDIR writable (a
# fake HOME on a tmpfs $TMPDIR would be too). Every other package's tests, the whole-process ones
# included, get their temporary folders on a tmpfs (scripts/with-tmpfs.sh, TEST_TMPFS): the hook
# processes they start create and remove files by the hundred thousand, and on a disk that is
# work for the file system's allocator, not for the hook.
GUARDS := ./checks/... ./confine
GUARDS_RE := /(checks(/.*)?|confine)$$
unit:
	@$(MAKE) --no-print-directory -j3 unit-race unit-guards unit-e2e

unit-race:
	sh scripts/with-tmpfs.sh go test -race -count=1 -timeout 25m $$(go list ./... | grep -v -E '$(E2E_RE)|$(GUARDS_RE)')

# Tests that start no goroutine sharing state skip themselves under the race detector, which has
# nothing to find in them and slows them several times over (testrace.Skip; each says why in its
# comment): they run here without it, beside the guards' tests, the lightest job. Every test that
# calls testrace.Skip is named here (internal/testrace's TestMakefileRunsEverySkippedTest).
NORACE_PKGS := ./install/wiring ./analysis/shellcmd ./dialect ./protocol ./checks/guard ./internal/redact ./cli ./internal/memcap
NORACE_RUN := ^(FuzzHook|TestRegression_GeneratedSettingsFiles|TestAdvInstallLongFile|TestAdvInstallPrunesManyDuplicates|TestScanCodeLinear|TestAdvHugeOutput|TestParseEventHugeToolResponse|TestToolSchemaBuiltinWalkAgrees|TestToolSchemaDeepWideInputReadInOnePass|FuzzJSON|TestCapEndsTheProcessWithExit2|TestLiftedChildHasTheLimitOfBefore)$$
unit-guards:
	go test -race -count=1 -timeout 25m $(GUARDS)
	go test -count=1 -timeout 25m -run '$(NORACE_RUN)' $(NORACE_PKGS)

unit-e2e:
	sh scripts/with-tmpfs.sh go test -count=1 -timeout 25m -parallel 8 $(E2E)

## test-real: the real agent CLIs, installed from npm at pinned versions into
## a cache kept between runs, driven headless against a scripted fake model
## API on 127.0.0.1 (realcli/, build tag realcli). A CLI that cannot be
## installed is skipped, or fails with MASSGEN_REALCLI_REQUIRED=1 (CI).
## REALCLI_FLAGS adds go test flags (-run, -v).
REALCLI_PARALLEL ?= 4
REALCLI_FLAGS ?=
test-real:
	go vet -tags realcli ./realcli/
	cd realcli && go test -tags realcli -count=1 -timeout 30m -parallel $(REALCLI_PARALLEL) $(REALCLI_FLAGS)

## demo: a scripted multi-agent session through every hook, in a temporary project.
demo: build
	@bash scripts/demo.sh $(BIN)

## bench: whole-process cost of each hook against a bare static Go binary.
bench: build
	@bash scripts/bench.sh

## peer: agreement of the default Bash guards with the peer guards' test tables (safety-net,
## destructive_command_guard, openmoat's conformance fixtures), and the real agent commands of
## ../shared/conformance replayed (docs/peer-agreement.md). The shared folder
## is ../shared, or $MASSGEN_HOOK_SHARED; the setting is built under bin/peer.
peer: build
	@go build -o bin/peerbench ./bench/peer
	@bin/peerbench -hook $(BIN)

## fuzz: every Go fuzz target in turn, FUZZTIME each (default 10s); a
## crasher stays in <package>/testdata/fuzz/ as a regression seed.
FUZZTIME ?= 10s
fuzz:
	@FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

## schema: regenerate docs/config.schema.json, the config file's JSON Schema, from the Go types.
schema:
	go run $(PKG) config schema > docs/config.schema.json

clean:
	rm -rf bin dist
