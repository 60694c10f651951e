"""Every system notification the browser raises, as the desktop's notification server got it.

Headless Chromium's own list of notifications (`getNotifications()`) is no record of what was
shown: on a bare page showing one notification every 1.7 s, it dropped each one after 25 s
and never listed some at all (3 of 40, polled every 10 ms), though each `showNotification`
had resolved. So the scripts run on a private desktop (`escritorio.sh`: Xvfb, a D-Bus session
and the dunst daemon), where Chromium hands every notification to the notification server
over D-Bus (40 of 40 in the same measurement), and `dbus-monitor` writes down each `Notify`
call: its title, its body and whether it replaces one shown before (a notification with the
tag of one still on screen).
"""
import html
import os
import re
import subprocess
import time

from espera import esperar

_monitor = None
_ruta = None
_desde = 0

# One `Notify` call as dbus-monitor prints it: app name, replaces_id, icon, summary, body, then
# the actions array. A body may hold quotes (Chromium puts the origin in a link before it), so
# a string ends only at a quote that ends its line and is followed by the next argument.
_LLAMADA = re.compile(
    r'member=Notify\n\s+string ".*?"\n\s+uint32 (\d+)\n\s+string ".*?"\n'
    r'\s+string "(.*?)"\n\s+string "(.*?)"\n\s+array \[.*?\n\s+int32 -?\d+\n', re.S)


def escuchar(carpeta):
    """Starts recording the session's notifications (before the browser starts)."""
    global _monitor, _ruta
    if "DBUS_SESSION_BUS_ADDRESS" not in os.environ:
        raise RuntimeError("vigia: sin sesión de D-Bus (el script corre dentro de escritorio.sh)")
    _ruta = os.path.join(carpeta, "notify-%d.txt" % time.monotonic_ns())
    with open(_ruta, "w") as fichero:
        _monitor = subprocess.Popen(
            ["dbus-monitor", "interface=org.freedesktop.Notifications,member=Notify"],
            stdout=fichero, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    # The monitor is listening once the bus has given it its name.
    esperar(lambda: "NameAcquired" in _leer() or _monitor.poll() is not None)
    if "NameAcquired" not in _leer():
        raise RuntimeError("vigia: dbus-monitor no arrancó: " + _leer())


def cerrar():
    if _monitor is not None:
        _monitor.terminate()
        _monitor.wait(timeout=10)


def _leer():
    with open(_ruta, encoding="utf-8", errors="replace") as fichero:
        return fichero.read()


def _cuerpo(texto):
    # Chromium writes the page's origin as a link, a blank line, then the notification's body,
    # with the markup characters escaped.
    if texto.startswith("<a href="):
        texto = texto.split("\n\n", 1)[-1]
    return html.unescape(texto)


def _todas():
    return [
        {"titulo": html.unescape(titulo), "cuerpo": _cuerpo(cuerpo), "reemplaza": reemplaza != "0"}
        for reemplaza, titulo, cuerpo in _LLAMADA.findall(_leer())]


def vistas():
    """The notifications raised since the last `olvidar`, in order; `reemplaza` says that one
    took the place of another still on screen (same tag), so the user saw it once."""
    return _todas()[_desde:]


def olvidar():
    """Counts only the notifications raised from now on."""
    global _desde
    _desde = len(_todas())


def diagnostico(navegador):
    """What the page knew of its notices (each one's answer from its Service Worker, its
    permission, its worker's state), for the test's message when notifications are missing."""
    return navegador.execute_async_script(
        "const listo = arguments[arguments.length - 1];"
        "const d = {permiso: Notification.permission, avisos: window.marcadorAvisos,"
        " entregas: window.marcadorEntregas,"
        " controlada: navigator.serviceWorker.controller !== null,"
        " cursor: sessionStorage.getItem('marcador-ultimo-evento'),"
        " visible: document.visibilityState};"
        "navigator.serviceWorker.getRegistration().then(r => {"
        " d.registro = r ? {activo: r.active ? r.active.state : null,"
        " esperando: r.waiting !== null, instalando: r.installing !== null} : null; listo(d); })"
        ".catch(e => { d.error = String(e); listo(d); });")


def anotar(navegador, resultado, cuantas, limite=60):
    """Waits (up to `limite` s) until `cuantas` new notifications were raised (not counting
    replacements) and writes every one to `resultado["notificaciones"]`; if they never come,
    `None` there, and for the test's message what there was and what the page knew."""
    def nuevas():
        return [n for n in vistas() if not n["reemplaza"]]

    if esperar(lambda: len(nuevas()) >= cuantas, limite=limite):
        resultado["notificaciones"] = vistas()
        return
    mostradas = vistas()
    resultado["notificaciones"] = None
    resultado["notificacionesVistas"] = mostradas
    resultado["diagnostico"] = diagnostico(navegador)
