#!/usr/bin/env python3
"""The screen of `marcador servir` in real headless Chromium (screen.md).

Usage: pantalla.py URL_BASE RESULTADO.json

Grants the notification permission through the DevTools command Browser.grantPermissions,
opens partido 1, presses the permission button and Jugar, reloads in the middle of the
match, waits for 3-2 and reads back the notifications raised (as the desktop's notification
server received them, vigia.py); then
turns quiet mode on, plays again and expects the in-page banner instead of notifications.
Writes what it saw as JSON; the Swift test decides what is right.
"""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from espera import esperar
import vigia

base, salida = sys.argv[1], sys.argv[2]
resultado = {"pasos": []}


def paso(texto):
    resultado["pasos"].append(texto)


def abrirControles():
    # A click on the summary toggles: only when closed (a reload closes them again).
    if not navegador.find_element(By.ID, "controles").get_attribute("open"):
        navegador.find_element(By.CSS_SELECTOR, "#controles summary").click()
    esperar(lambda: navegador.find_element(By.ID, "controles").get_attribute("open"))


vigia.escuchar(os.path.dirname(os.path.abspath(salida)))
opciones = webdriver.ChromeOptions()
for argumento in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--window-size=1280,900", "--lang=es"):
    opciones.add_argument(argumento)
navegador = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opciones)
try:
    navegador.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": base, "permissions": ["notifications"]})
    navegador.set_script_timeout(20)

    # The list, live.
    navegador.get(base + "/")
    esperar(lambda: navegador.find_elements(By.CSS_SELECTOR, "#partidos li"))
    resultado["filas"] = [
        e.text for e in navegador.find_elements(By.CSS_SELECTOR, "#partidos li")]
    pintura = navegador.execute_script(
        "const p = performance.getEntriesByType('paint')"
        ".find(e => e.name === 'first-contentful-paint'); return p ? p.startTime : null;")
    resultado["primerPintadoListaMs"] = pintura

    # The match screen.
    navegador.get(base + "/partidos/1")
    esperar(lambda: navegador.execute_script("return document.body.dataset.listo === 'si'"))
    resultado["primerPintadoPartidoMs"] = navegador.execute_script(
        "const p = performance.getEntriesByType('paint')"
        ".find(e => e.name === 'first-contentful-paint'); return p ? p.startTime : null;")
    resultado["pesoBytes"] = navegador.execute_script(
        "const n = performance.getEntriesByType('navigation')[0];"
        "return n.encodedBodySize + performance.getEntriesByType('resource')"
        ".filter(r => r.initiatorType !== 'xmlhttprequest' && r.initiatorType !== 'fetch'"
        " && r.initiatorType !== 'other')"
        ".reduce((s, r) => s + r.encodedBodySize, 0);")
    resultado["recursos"] = navegador.execute_script(
        "return performance.getEntriesByType('resource').map(r => [r.name, r.encodedBodySize, r.initiatorType]);")
    # The app's controls are in a secondary area, closed at first.
    abrirControles()
    navegador.find_element(By.ID, "permiso").click()
    # Until the server has turned notices on and added the `navegador` channel (the text
    # says so): a match started before that would queue its goals for no browser at all, as
    # a loaded run once did.
    esperar(lambda: navegador.find_element(By.ID, "permiso-estado").text
            == "Avisos de gol activados.", limite=30)
    resultado["permiso"] = navegador.find_element(By.ID, "permiso-estado").text
    resultado["permisoDelNavegador"] = navegador.execute_script("return Notification.permission")
    esperar(lambda: navegador.execute_script(
        "return navigator.serviceWorker.controller !== null || true"))
    # Reload in the middle of the match (after 10', before 35'). The page itself watches its
    # minute and reloads: a loaded machine once let a whole 15'-35' window (0.8 s) pass between
    # two WebDriver polls, and the reload never came.
    navegador.execute_script(
        "const el = document.getElementById('minuto');"
        "new MutationObserver(() => {"
        "  const m = parseInt(el.textContent || '0', 10);"
        "  if (m >= 15 && m < 35 && !window.antesDeRecargar) {"
        "    window.antesDeRecargar = true;"
        "    sessionStorage.setItem('minutoDeLaRecarga', String(m));"
        "    location.reload();"
        "  }"
        "}).observe(el, {childList: true, characterData: true, subtree: true});")
    navegador.find_element(By.ID, "jugar").click()
    paso("jugar")
    def recargada():
        try:
            return navegador.execute_script(
                "return sessionStorage.getItem('minutoDeLaRecarga') !== null"
                " && !window.antesDeRecargar && document.body.dataset.listo === 'si'")
        except Exception:  # the old page is going away under the script
            return False
    esperar(recargada, limite=60)
    recarga = navegador.execute_script("return sessionStorage.getItem('minutoDeLaRecarga')")
    resultado["minutoDeLaRecarga"] = int(recarga) if recarga else None
    paso("recarga")
    abrirControles()
    esperar(lambda: navegador.find_element(By.ID, "estado").text == "Partido terminado")
    resultado["marcador"] = navegador.find_element(By.ID, "marcador").text
    resultado["estado"] = navegador.find_element(By.ID, "estado").text
    resultado["goles"] = [e.text for e in navegador.find_elements(By.CSS_SELECTOR, "#cronologia li.gol")]
    resultado["ultimoAviso"] = navegador.find_element(By.ID, "ultimo-aviso").text
    # Notifications travel through the outbox lane of the server: on a loaded machine they may
    # come after the final whistle. Wait for all five goals' (or give up after 60 s).
    vigia.anotar(navegador, resultado, cuantas=5)

    # Quiet mode: with the page in view, a banner instead of notifications.
    vigia.olvidar()
    navegador.find_element(By.ID, "silencio").click()
    esperar(lambda: navegador.find_element(By.ID, "silencio").is_selected())
    # The setting is stored by the server before the match starts (the page posts it).
    esperar(lambda: navegador.execute_async_script(
        "const listo = arguments[arguments.length - 1];"
        "fetch('/api/ajustes').then(r => r.json()).then(a => listo(a.silencio === true))"
        ".catch(() => listo(false));"))
    antes = navegador.execute_script("return window.marcadorAvisos")
    navegador.find_element(By.ID, "jugar").click()
    paso("jugar en silencio")
    banner = esperar(lambda: navegador.find_element(By.ID, "banner").is_displayed()
                     and navegador.find_element(By.ID, "banner").text, limite=20, cada=0.005)
    resultado["banner"] = banner
    esperar(lambda: navegador.find_element(By.ID, "estado").text == "Partido terminado")
    # All five notices reached the page; then a short window in which a wrong system
    # notification would appear (what is tested here is that none does).
    esperar(lambda: navegador.execute_script("return window.marcadorAvisos") >= antes + 5)
    time.sleep(0.3)
    resultado["notificacionesEnSilencio"] = vigia.vistas()

    # A phone-width screen.
    navegador.set_window_size(360, 800)
    esperar(lambda: navegador.execute_script("return window.innerWidth <= 360"))
    resultado["anchoDelDocumento"] = navegador.execute_script(
        "return document.documentElement.scrollWidth")
    resultado["erroresDeConsola"] = [
        e["message"] for e in navegador.get_log("browser") if e.get("level") == "SEVERE"]
finally:
    navegador.quit()
    vigia.cerrar()
    with open(salida, "w", encoding="utf-8") as fichero:
        json.dump(resultado, fichero, ensure_ascii=False, indent=2)
