# marcador — build, run and test on a machine that has only the Swift toolchain.
# `make` installs the system packages it needs (the -dev packages below) with apt-get when missing.

SWIFT ?= swift
# Arguments for `make run`: the main job plays partido 1 on the default database.
ARGS ?= jugar 1

.PHONY: all deps build release run test lint format clean bench bench-difusion bench-importar bench-postgresql esquema orden torture fuzz install uninstall

all: build

# SQLite's, libcurl's, libevent's, libpq's and OpenSSL's headers and pkg-config files come from
# Debian's -dev packages.
DEPS = libsqlite3-dev libcurl4-openssl-dev libevent-dev libpq-dev libssl-dev libnghttp2-dev pkg-config
deps:
	@if ! pkg-config --exists sqlite3 libcurl libevent libpq libcrypto libssl libnghttp2 2>/dev/null; then \
		echo "Instalando $(DEPS) con apt-get…"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $(DEPS); \
	fi

build: deps
	$(SWIFT) build

# Release builds link the Swift runtime statically: faster start (no dynamic loading of the
# runtime) and no dependency on where the toolchain is installed. The other flags keep start-up
# and memory near the smallest Swift program (docs/bench.md):
# - no --export-dynamic (the static runtime's): it put every public symbol of the modules in
#   the dynamic table, which the runtime's dladdr at start walks one by one;
# - metadata of a generic type over concrete types (`[String: String]`, `Opcion<String>`) made
#   by a direct call, not by demangling its name and scanning every conformance record;
# - every function in a section of its own (Swift gives one only to public functions), so the
#   unused ones are dropped and the ones start-up and the common commands run are laid out
#   together, in the order of bench/orden-de-funciones.txt (`make orden` profiles them again:
#   bench/orden.sh). SwiftPM does not watch that file: a binary older than it is linked again;
# - lld, the toolchain's linker, with packed relative relocations (`-z pack-relative-relocs`):
#   the loader reads 8 KiB of them instead of gold's 1 MiB table of 42,000 entries, which were
#   pages of the binary resident for the whole run (without lld: gold, and no ordering);
# - the C++ library the runtime needs linked in from its static archive, found by the
#   toolchain's clang: the runtime's `-lstdc++` finds .build/enlace/libstdc++.so first, a
#   linker script naming that archive. Loading libstdc++.so cost 1.2 MB of resident memory and
#   its symbol relocations at every start; without the archive the shared library is used.
HERRAMIENTAS = $(dir $(realpath $(shell command -v $(SWIFT))))
ENLACE = $(CURDIR)/.build/enlace
LLD = $(if $(wildcard $(HERRAMIENTAS)ld.lld),-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --symbol-ordering-file=$(CURDIR)/bench/orden-de-funciones.txt -Xlinker --no-warn-symbol-ordering)
RELEASE = { [ .build/release/marcador -nt bench/orden-de-funciones.txt ] \
	|| rm -f .build/release/marcador; } && mkdir -p $(ENLACE) \
	&& { a=$$("$(HERRAMIENTAS)clang" -print-file-name=libstdc++.a 2>/dev/null); \
	  if [ -f "$$a" ]; then echo "INPUT($$a)" > $(ENLACE)/libstdc++.so; else rm -f $(ENLACE)/libstdc++.so; fi; } \
	&& $(SWIFT) build -c release --static-swift-stdlib -Xlinker --no-export-dynamic \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -Xfrontend -Xswiftc -function-sections $(LLD) -Xlinker -L$(ENLACE)
release: deps
	$(RELEASE)

# `make install PREFIX=~/.local`: the binary, bash/zsh/fish completions and the man page, all
# written by the binary from its own command declarations.
PREFIX ?= /usr/local
DESTDIR ?=
install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 .build/release/marcador $(DESTDIR)$(PREFIX)/bin/marcador
	.build/release/marcador completado bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/marcador
	.build/release/marcador completado zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_marcador
	.build/release/marcador completado fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/marcador.fish
	.build/release/marcador manual > $(DESTDIR)$(PREFIX)/share/man/man1/marcador.1
	@case " $$(zsh -fc 'print -r -- $$fpath' 2>/dev/null) " in \
		*" $(PREFIX)/share/zsh/site-functions "*) ;; \
		*) echo "zsh: para completar, añade a ~/.zshrc, antes de compinit:"; \
		   echo "  fpath=($(PREFIX)/share/zsh/site-functions \$$fpath)";; \
	esac

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/marcador $(DESTDIR)$(PREFIX)/share/man/man1/marcador.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/marcador \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_marcador \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/marcador.fish

run: build
	$(SWIFT) run --skip-build marcador $(ARGS)

# The unit suites, then (apart) those that run processes and servers; a summary at the end.
# `make test FILTRO=Despachador` runs only the tests whose name matches.
FILTRO ?=
test: deps lint
	$(SWIFT) build --build-tests
	FILTRO="$(FILTRO)" SWIFT="$(SWIFT)" scripts/pruebas.sh

lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests Plugins

format:
	$(SWIFT) format format --in-place --recursive --parallel Package.swift Sources Tests Plugins

clean:
	rm -rf .build

# Figures against baselines measured in the same run; writes bench/results.json. Needs
# sqlite3 and /usr/bin/time (Debian packages sqlite3 and time). Not part of `make test`.
bench: deps
	@command -v sqlite3 >/dev/null && [ -x /usr/bin/time ] || { \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); $$SUDO apt-get install -y -qq sqlite3 time; }
	$(RELEASE)
	.build/release/marcador-bench --salida bench/results.json

# bench/orden-de-funciones.txt from callgrind profiles of start-up and the common commands.
orden: deps
	@command -v valgrind >/dev/null || { SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get install -y -qq valgrind; }
	$(RELEASE) --product marcador
	bench/orden.sh

# migrations/esquema.sql: the schema the SQLite migrations build, in one script that a new
# database runs instead of replaying them. Regenerate after adding a migration (a test fails
# until then).
esquema:
	@command -v sqlite3 >/dev/null || { echo "falta sqlite3 (Debian: sqlite3)" >&2; exit 69; }
	@ultima=$$(ls migrations/[0-9]*.sql | tail -n 1 | sed 's|^migrations/0*||; s|_.*||'); \
	{ echo "-- Generated by \`make esquema\` from migrations/NNNN_*.sql: do not edit. A new database"; \
	  echo "-- runs this instead of replaying the migrations (tables, indexes, triggers and rows)."; \
	  echo "PRAGMA user_version = $$ultima;"; \
	  { cat migrations/[0-9]*.sql; echo ".dump"; } | sqlite3 -batch :memory: \
	    | grep -v -e '^PRAGMA foreign_keys=OFF;$$' -e '^BEGIN TRANSACTION;$$' -e '^COMMIT;$$'; \
	} > migrations/esquema.sql

# One goal to 10,000 / 100,000 / 1,000,000 devices (contract.md §20), APNs and Web Push, SQLite
# and PostgreSQL, one and two dispatchers, to the C HTTP/2 + TLS sink in bench/sumidero, with
# h2load against the same sink as the floor; writes bench/resultados-difusion.json. Needs
# nghttp2-client (h2load), postgresql, sqlite3, bc and Python's cryptography. Not part of
# `make test`. DIFUSION="--tamanos 10000 --almacenes sqlite" narrows it.
bench-difusion: deps
	@command -v h2load >/dev/null && command -v sqlite3 >/dev/null && command -v bc >/dev/null \
		&& python3 -c 'import cryptography' 2>/dev/null || { \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get install -y -qq nghttp2-client sqlite3 bc python3-cryptography postgresql; }
	$(RELEASE)
	bench/difusion.sh $(DIFUSION)

# `dispositivos importar` of a million APNs devices on SQLite against its C floor (the store's
# part alone, marcador's statements prepared once): bench/importar.sh. IMPORTAR_N, RONDAS.
bench-importar: deps
	$(RELEASE)
	bench/importar.sh

# postgresql.md's figures, PostgreSQL beside SQLite: needs postgresql, sqlite3 and hyperfine.
bench-postgresql: deps
	$(RELEASE)
	bench/postgresql.sh

# libFuzzer targets for the importer's JSON reading and the argument parser, bounded in time
# (FUZZ_SEGUNDOS per target, 60 by default). Not part of `make test`.
fuzz:
	Fuzz/fuzz.sh

# Rounds of SIGKILLs against jugar and three dispatchers while a webhook receiver records
# deliveries and FALLOS % of the outcome writes fail (injected); prints totals (losses and
# out-of-order arrivals must be 0). RONDAS and SEMILLA replay a run. Minutes long.
RONDAS ?= 50
FALLOS ?= 5
torture: deps
	$(RELEASE)
	.build/release/marcador-tortura --rondas $(RONDAS) --fallos $(FALLOS) $(if $(SEMILLA),--semilla $(SEMILLA))
