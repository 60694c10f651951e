"""Every system notification the browser shows, noted as it is shown.

Headless Chromium has no notification centre: it drops a notification about 25 seconds after
showing it, so `getNotifications()` read at the end of a slow run lists nothing of the early
goals. A watcher put into every document of the tab (through DevTools, before the page's own
scripts) reads the Service Worker registration's notifications every 100 ms and writes each
one it sees to localStorage, which survives reloads and navigation. `vistas` lists what was
shown since the last `olvidar`, by the notifications' own timestamps, so a read still in
flight when the record is reset cannot bring an old notification back.
"""
import json
import time

CLAVE = "vigia-de-notificaciones"

VIGIA = """
(() => {
  if (!('serviceWorker' in navigator) || window.vigiaDeNotificaciones) return;
  window.vigiaDeNotificaciones = true;
  const clave = '%s';
  async function mirar() {
    const registro = await navigator.serviceWorker.getRegistration();
    if (!registro) return;
    // One key per notification: two documents alive at once (a page being left, a second
    // window) write to storage that reaches the other late, and a shared list lost entries.
    for (const n of await registro.getNotifications()) {
      const marca = clave + '|' + n.tag + '|' + n.title + '|' + n.body;
      if (localStorage.getItem(marca) !== null) continue;
      localStorage.setItem(marca, JSON.stringify(
        { titulo: n.title, cuerpo: n.body, tag: n.tag, hora: n.timestamp, visto: Date.now() }));
    }
  }
  // The next look only once this one is written: two in flight would lose one's notes.
  const otraVez = () => mirar().catch(() => {}).then(() => setTimeout(otraVez, 100));
  otraVez();
})();
""" % CLAVE


def instalar(navegador):
    """Watches every document this tab opens from now on (call before the first `get`)."""
    navegador.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": VIGIA})


def vistas(navegador):
    """The notifications shown since the last `olvidar`, in the order they were first seen."""
    datos = navegador.execute_script(
        "return [Object.keys(localStorage).filter(k => k.startsWith('%s|'))"
        ".map(k => localStorage.getItem(k)), localStorage.getItem('%s-desde')]" % (CLAVE, CLAVE))
    desde = float(datos[1] or 0)
    notas = sorted((json.loads(n) for n in datos[0]), key=lambda n: (n["visto"], n["hora"]))
    return [
        {"titulo": n["titulo"], "cuerpo": n["cuerpo"], "tag": n["tag"]}
        for n in notas if n["hora"] >= desde]


def olvidar(navegador):
    """Closes what is on screen and counts only what is shown from now on."""
    navegador.execute_async_script(
        "const listo = arguments[arguments.length - 1];"
        "navigator.serviceWorker.ready.then(r => r.getNotifications())"
        ".then(ns => { ns.forEach(n => n.close());"
        " localStorage.setItem('%s-desde', String(Date.now())); listo(true); });" % CLAVE)


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
    """Waits (up to `limite` s) until `cuantas` notifications were shown and writes them to
    `resultado["notificaciones"]`; if they never come, `None` there, and for the test's
    message what there was and what the page knew."""
    fin = time.monotonic() + limite
    while True:
        mostradas = vistas(navegador)
        if len(mostradas) >= cuantas or time.monotonic() >= fin:
            break
        time.sleep(0.05)
    if len(mostradas) >= cuantas:
        resultado["notificaciones"] = mostradas
        return
    resultado["notificaciones"] = None
    resultado["notificacionesVistas"] = mostradas
    resultado["diagnostico"] = diagnostico(navegador)
