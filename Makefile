# marcador — build, run and test on a machine that has only the Swift toolchain.
# `make` installs the one system package it needs (libsqlite3-dev) with apt-get when missing.

SWIFT ?= swift
# Arguments for `make run`: the main job plays partido 1 on the default database.
ARGS ?= jugar 1

.PHONY: all deps build release run test lint format clean

all: build

# SQLite's and libcurl's headers and pkg-config files come from Debian's -dev packages.
DEPS = libsqlite3-dev libcurl4-openssl-dev pkg-config
deps:
	@if ! pkg-config --exists sqlite3 libcurl 2>/dev/null; then \
		echo "Instalando $(DEPS) con apt-get…"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $(DEPS); \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

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
