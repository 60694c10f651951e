# marcador — build, run and test on a machine that has only the Swift toolchain.
# `make` installs the system packages it needs (the -dev packages below) with apt-get when missing.

SWIFT ?= swift
# Arguments for `make run`: the main job plays partido 1 on the default database.
ARGS ?= jugar 1

.PHONY: all deps build release run test lint format clean bench bench-postgresql torture fuzz install uninstall

all: build

# SQLite's, libcurl's, libevent's and libpq's headers and pkg-config files come from Debian's
# -dev packages.
DEPS = libsqlite3-dev libcurl4-openssl-dev libevent-dev libpq-dev pkg-config
deps:
	@if ! pkg-config --exists sqlite3 libcurl libevent libpq 2>/dev/null; then \
		echo "Instalando $(DEPS) con apt-get…"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $(DEPS); \
	fi

build: deps
	$(SWIFT) build

# Release builds link the Swift runtime statically: faster start (no dynamic loading of the
# runtime) and no dependency on where the toolchain is installed.
RELEASE = $(SWIFT) build -c release --static-swift-stdlib
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

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/marcador $(DESTDIR)$(PREFIX)/share/man/man1/marcador.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/marcador \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_marcador \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/marcador.fish

run: build
	$(SWIFT) run --skip-build marcador $(ARGS)

test: deps lint
	timeout 1200 $(SWIFT) test --parallel

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

# DESIGN §12's figures, PostgreSQL beside SQLite: needs postgresql, sqlite3 and hyperfine.
bench-postgresql: deps
	$(RELEASE)
	bench/postgresql.sh

# libFuzzer targets for the importer's JSON reading and the argument parser, bounded in time
# (FUZZ_SEGUNDOS per target, 60 by default). Not part of `make test`.
fuzz:
	Fuzz/fuzz.sh

# Rounds of SIGKILLs against jugar and three dispatchers while a webhook receiver records
# deliveries; prints totals (losses must be 0). RONDAS and SEMILLA replay a run. Minutes long.
RONDAS ?= 50
torture: deps
	$(RELEASE)
	.build/release/marcador-tortura --rondas $(RONDAS) $(if $(SEMILLA),--semilla $(SEMILLA))
