#!/usr/bin/env python3
"""A push reaching the page's Service Worker with every page of the server closed (contract.md
§19), in real headless Chromium on a private desktop (escritorio.sh).

Usage: empuje.py BASE RESULTADO.json

Opens a match page (which registers the Service Worker), then closes it, leaving only a blank
tab. The push comes through Chromium's DevTools (`ServiceWorker.deliverPushMessage`, the
Application panel's «Push» button: a headless browser has no push service to subscribe to),
spoken over the browser's own DevTools socket because Debian's Selenium lacks its CDP event
bindings. The notification is seen on the desktop's D-Bus (vigia); dunst is then asked to
invoke its default action — a click — and the Service Worker must open the match's page. Writes
what it saw as JSON; the Swift test decides what is right.
"""
import json
import os
import subprocess
import sys
import urllib.request

import trio
import trio_websocket
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from espera import esperar
import vigia

base, salida = sys.argv[1:3]
carpeta = os.path.dirname(os.path.abspath(salida))
resultado = {}


async def cdp(url, pasos):
    """Runs `pasos(enviar, evento)` on a DevTools websocket: `enviar(metodo, params)` returns
    the command's result, `evento(nombre, condicion)` the first such event that satisfies it."""
    async with trio_websocket.open_websocket_url(url, max_message_size=2**24) as ws:
        siguiente = [0]
        pendientes = []

        async def recibir():
            return json.loads(await ws.get_message())

        async def enviar(metodo, params=None):
            siguiente[0] += 1
            await ws.send_message(json.dumps({"id": siguiente[0], "method": metodo,
                                              "params": params or {}}))
            while True:
                mensaje = await recibir()
                if mensaje.get("id") == siguiente[0]:
                    if "error" in mensaje:
                        raise RuntimeError(f"{metodo}: {mensaje['error']}")
                    return mensaje.get("result", {})
                pendientes.append(mensaje)

        async def evento(nombre, condicion):
            with trio.fail_after(20):
                while True:
                    mensaje = pendientes.pop(0) if pendientes else await recibir()
                    if mensaje.get("method") == nombre and condicion(mensaje["params"]):
                        return mensaje["params"]

        return await pasos(enviar, evento)


vigia.escuchar(carpeta)
opciones = webdriver.ChromeOptions()
for argumento in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--window-size=1280,900", "--lang=es"):
    opciones.add_argument(argumento)
# The permission as a user's choice in the profile: DevTools' own grant (grantPermissions)
# holds for pages, but a Service Worker woken with no page open is judged by the profile's
# settings («No notification permission has been granted for this origin»).
opciones.add_experimental_option("prefs", {
    "profile.content_settings.exceptions.notifications": {
        base + ",*": {"setting": 1}}})
navegador = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opciones)
try:
    navegador.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": base, "permissions": ["notifications"]})
    navegador.set_script_timeout(30)
    navegador.get(base + "/partidos/1")
    resultado["ambito"] = navegador.execute_async_script(
        "const listo = arguments[0];"
        " navigator.serviceWorker.ready.then((r) => listo(r.active ? r.scope : null));")
    # The page goes; a blank tab keeps the browser (and its DevTools) alive.
    pagina = navegador.current_window_handle
    navegador.switch_to.new_window("tab")
    navegador.get("about:blank")
    blanca = navegador.current_window_handle
    navegador.switch_to.window(pagina)
    navegador.close()
    navegador.switch_to.window(blanca)
    direccion = navegador.capabilities["goog:chromeOptions"]["debuggerAddress"]
    objetivos = json.load(urllib.request.urlopen(f"http://{direccion}/json/list"))
    resultado["paginasAbiertas"] = [o["url"] for o in objetivos if o["type"] == "page"]
    pestana = next(o for o in objetivos if o["type"] == "page" and o["url"] == "about:blank")
    vigia.olvidar()
    aviso = {
        "titulo": "¡Gol!", "cuerpo": "Marta (Rayo FC), minuto 60",
        "identificador": "gol-60-Marta", "partido": 1, "tipo": "gol", "url": "/partidos/1",
    }

    async def empujar(enviar, evento):
        await enviar("ServiceWorker.enable")
        registro = await evento(
            "ServiceWorker.workerRegistrationUpdated",
            lambda p: any(r["scopeURL"] == base + "/" and not r["isDeleted"]
                          for r in p["registrations"]))
        identificador = next(r["registrationId"] for r in registro["registrations"]
                             if r["scopeURL"] == base + "/")
        await enviar("ServiceWorker.deliverPushMessage", {
            "origin": base, "registrationId": identificador,
            "data": json.dumps(aviso, ensure_ascii=False)})
        return identificador

    resultado["registro"] = trio.run(cdp, pestana["webSocketDebuggerUrl"], empujar)
    resultado["notificaciones"] = esperar(vigia.vistas, limite=20)
    # A click: dunst invokes the notification's default action, Chromium tells the Service
    # Worker (notificationclick), which opens the match.
    resultado["clic"] = subprocess.run(
        ["dunstctl", "action", "0"], capture_output=True, text=True, timeout=10).returncode

    def abierta():
        lista = json.load(urllib.request.urlopen(f"http://{direccion}/json/list"))
        return [o["url"] for o in lista if o["type"] == "page" and "/partidos/" in o["url"]]

    resultado["abiertasTrasElClic"] = esperar(abierta, limite=20)
finally:
    navegador.quit()
    vigia.cerrar()
    with open(salida, "w") as fichero:
        json.dump(resultado, fichero, ensure_ascii=False, indent=1)
