#!/bin/sh
# Runs a command on a private desktop of its own: an X server (Xvfb) on a display number it
# chooses itself (-displayfd: two at once never take the same), a private D-Bus session and
# the dunst notification daemon on it, owning org.freedesktop.Notifications before the
# command starts. Everything ends with the command.
#   Tests/escritorio.sh COMMAND [ARGS...]
set -eu
pantalla=$(mktemp)
Xvfb -displayfd 3 -nolisten tcp -screen 0 640x480x24 3>"$pantalla" >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -f "$pantalla"' EXIT
for _ in $(seq 300); do [ -s "$pantalla" ] && break; sleep 0.05; done
[ -s "$pantalla" ] || { echo "escritorio: Xvfb no arrancó" >&2; exit 69; }
DISPLAY=:$(cat "$pantalla")
export DISPLAY
dbus-run-session -- sh -c '
    dunst >/dev/null 2>&1 &
    for _ in $(seq 300); do
        dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null |
            grep -q true && exec "$@"
        sleep 0.05
    done
    echo "escritorio: dunst no arrancó" >&2; exit 69' sh "$@"
