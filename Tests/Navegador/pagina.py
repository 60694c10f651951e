#!/usr/bin/env python3
"""The screen as a live-score page in real headless Chromium (screen.md, issue 24).

Usage: pagina.py MARCADOR BASE_DE_DATOS CARPETA_DE_CAPTURAS RESULTADO.json

Starts `marcador servir` itself on the prepared database (so it can stop it and start it
again on the same port), then looks at the page as a fan would: the list at phone width, the
scorers of a played match, extra time, a goal going in (highlight, the live badge, what screen
readers hear), quiet mode with two goals in one minute and a background window, the server
gone and back, every page checked with axe-core in light and dark mode, and the manifest
judged installable by Chromium itself. Writes what it saw as JSON; the Swift test decides
what is right. Screenshots of the list, a match with a goal just in and a competition table,
at 1280 and 360 pixels wide, go to CARPETA_DE_CAPTURAS.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from espera import esperar
import vigia

try:
    from axe_selenium_python import Axe
except ImportError:
    Axe = None

marcador, base_de_datos, capturas, salida = sys.argv[1:5]
carpeta = os.path.dirname(os.path.abspath(salida))
resultado = {"pasos": [], "axe": {}}


def paso(texto):
    resultado["pasos"].append(texto)


class Servidor:
    """One `marcador servir` on the test's database; its lines in a file, read as they come."""

    def __init__(self, puerto=0):
        self.registro = os.path.join(carpeta, "servir-%d.txt" % time.monotonic_ns())
        entorno = dict(os.environ, TZ="UTC")
        with open(self.registro, "w") as fichero:
            self.proceso = subprocess.Popen(
                [marcador, "--db", base_de_datos, "servir", "--puerto", str(puerto)],
                stdout=fichero, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=entorno)
        linea = esperar(lambda: re.search(r"Sirviendo en http://127\.0\.0\.1:(\d+)",
                                          open(self.registro).read()), limite=30)
        if not linea:
            raise RuntimeError("servir no arrancó: " + open(self.registro).read())
        self.puerto = int(linea.group(1))

    def parar(self):
        self.proceso.send_signal(signal.SIGINT)
        self.proceso.wait(timeout=20)


def texto(selector):
    return navegador.find_element(By.CSS_SELECTOR, selector).text


def listo():
    return navegador.execute_script("return document.body.dataset.listo === 'si'")


def abrir(ruta):
    navegador.get(base + ruta)
    esperar(lambda: navegador.execute_script("return document.readyState === 'complete'"))


def accesibilidad(nombre):
    """axe-core on the page as it is now: the serious and critical violations, by rule."""
    if Axe is None:
        return
    axe = Axe(navegador)
    axe.inject()
    informe = axe.run()
    resultado["axe"][nombre] = [
        {"regla": v["id"], "impacto": v["impact"],
         "nodos": [n.get("target") for n in v.get("nodes", [])][:5]}
        for v in informe.get("violations", []) if v.get("impact") in ("serious", "critical")]


def oscuro(activo):
    navegador.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark" if activo else "light"}]})


def ancho(px):
    navegador.set_window_size(px, 900 if px > 400 else 800)
    esperar(lambda: navegador.execute_script("return window.innerWidth") <= px, limite=5)


servidor = Servidor()
base = "http://127.0.0.1:%d" % servidor.puerto
resultado["axeDisponible"] = Axe is not None

vigia.escuchar(carpeta)
opciones = webdriver.ChromeOptions()
for argumento in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--window-size=1280,900", "--lang=es"):
    opciones.add_argument(argumento)
opciones.set_capability("goog:loggingPrefs", {"browser": "ALL"})
navegador = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opciones)
try:
    navegador.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": base, "permissions": ["notifications"]})
    navegador.set_script_timeout(30)

    # 3. The list on a phone: compact rows, no «0'» before kick-off, «Final» once played.
    ancho(360)
    abrir("/")
    esperar(listo)
    filas = navegador.find_elements(By.CSS_SELECTOR, "#partidos li")
    resultado["filasEnLaLista"] = len(filas)
    altos = sorted(f.size["height"] for f in filas)
    resultado["altoMaximoDeFila"] = altos[-1]
    resultado["altoMedianoDeFila"] = altos[len(altos) // 2]
    resultado["filasEnPantalla360"] = navegador.execute_script(
        "return [...document.querySelectorAll('#partidos li')]"
        ".filter(f => f.getBoundingClientRect().bottom <= window.innerHeight).length")
    resultado["horas"] = [e.text for e in navegador.find_elements(By.CSS_SELECTOR, "#partidos .hora")]
    resultado["filaJugada"] = texto("#partido-2")
    resultado["anchoDelDocumento360"] = navegador.execute_script(
        "return document.documentElement.scrollWidth")
    navegador.save_screenshot(capturas + "/lista-360.png")
    ancho(1280)
    navegador.save_screenshot(capturas + "/lista-1280.png")
    resultado["primerPintadoListaMs"] = navegador.execute_script(
        "const p = performance.getEntriesByType('paint')"
        ".find(e => e.name === 'first-contentful-paint'); return p ? p.startTime : null;")

    # 5. Served with its state: the scorers are in the HTML before any script runs.
    navegador.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    abrir("/partidos/2")
    resultado["sinScript"] = {
        "marcador": texto("#marcador"), "estado": texto("#estado"),
        "local": [e.text for e in navegador.find_elements(By.CSS_SELECTOR, "#goleadores-local li")],
        "visitante": [e.text for e in navegador.find_elements(By.CSS_SELECTOR, "#goleadores-visitante li")],
        "cronologia": [e.text for e in navegador.find_elements(By.CSS_SELECTOR, "#cronologia li")],
    }
    navegador.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    abrir("/partidos/2")
    esperar(listo)
    resultado["conScript"] = {
        "marcador": texto("#marcador"),
        "local": [e.text for e in navegador.find_elements(By.CSS_SELECTOR, "#goleadores-local li")],
        "visitante": [e.text for e in navegador.find_elements(By.CSS_SELECTOR, "#goleadores-visitante li")],
        "goles": [e.text for e in navegador.find_elements(By.CSS_SELECTOR, "#cronologia li.gol")],
        "cronologia": [e.text for e in navegador.find_elements(By.CSS_SELECTOR, "#cronologia li")],
    }
    ancho(360)
    navegador.save_screenshot(capturas + "/cronologia-360.png")
    ancho(1280)
    navegador.save_screenshot(capturas + "/cronologia-1280.png")

    # An imported match (the World Cup's opening one, 15:00 UTC) seen from Tokyo: its kick-off
    # in the viewer's zone, and no control to play it.
    navegador.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    abrir("/partidos/4")
    esperar(listo)
    navegador.find_element(By.CSS_SELECTOR, "#controles summary").click()
    resultado["importado"] = {
        "saque": texto(".contexto time"),
        "jugarVisible": navegador.find_element(By.ID, "jugar").is_displayed(),
    }
    navegador.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})

    # 6. Extra time: the choice that is ticked is the one that is set, and both can be chosen.
    abrir("/partidos/3")
    esperar(listo)
    navegador.find_element(By.CSS_SELECTOR, "#controles summary").click()
    resultado["prorroga"] = {
        "minuto": texto(".minuto"),
        "marcada": navegador.execute_script(
            "const o = document.querySelector('input[name=duracion]:checked');"
            "return o ? o.parentElement.textContent.trim() : null;"),
    }
    navegador.find_element(By.CSS_SELECTOR, "input[name=duracion][value='60']").click()
    esperar(lambda: "de 60" in texto(".minuto") or texto("#error"), limite=10)
    navegador.find_element(By.CSS_SELECTOR, "input[name=duracion][value='90']").click()
    resultado["prorroga"]["trasVolver"] = esperar(
        lambda: "de 120" in texto(".minuto") and texto(".minuto"), limite=10)
    resultado["prorroga"]["error"] = texto("#error")

    # A competition: its tables and scorers, at both widths.
    abrir("/competiciones/World%20Cup%202018")
    resultado["competicion"] = {
        "grupos": len(navegador.find_elements(By.CSS_SELECTOR, "table.tabla")),
        "h1": texto("h1"),
    }
    navegador.save_screenshot(capturas + "/competicion-1280.png")
    ancho(360)
    resultado["anchoDeLaCompeticion360"] = navegador.execute_script(
        "return document.documentElement.scrollWidth")
    # Each table's points within reach: in view once its own box is scrolled to the end.
    resultado["puntos360"] = navegador.execute_script(
        "return [...document.querySelectorAll('.desplazable')].map(caja => {"
        " caja.scrollLeft = caja.scrollWidth;"
        " const pts = [...caja.querySelectorAll('thead th')].find(t => t.textContent === 'Pts');"
        " const r = pts.getBoundingClientRect();"
        " return r.left >= 0 && r.right <= window.innerWidth; })")
    resultado["leyenda"] = [e.text for e in navegador.find_elements(By.CSS_SELECTOR, ".leyenda li")]
    resultado["zonas"] = len(navegador.find_elements(By.CSS_SELECTOR, "tr.zona-pasa"))
    navegador.save_screenshot(capturas + "/competicion-360.png")
    ancho(1280)

    # 7. Accessibility of every page, light and dark.
    for nombre, ruta in (("lista", "/"), ("partido", "/partidos/1"),
                         ("competiciones", "/competiciones"),
                         ("competicion", "/competiciones/World%20Cup%202018"),
                         ("error", "/partidos/99")):
        for modo in (False, True):
            oscuro(modo)
            abrir(ruta)
            if ruta.startswith("/partidos/1"):
                esperar(listo)
                navegador.find_element(By.CSS_SELECTOR, "#controles summary").click()
            accesibilidad(nombre + ("-oscuro" if modo else ""))
    oscuro(False)

    # Installable: Chromium's own verdict on the manifest, icons and start URL.
    abrir("/")
    resultado["instalable"] = navegador.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    resultado["manifiesto"] = navegador.execute_cdp_cmd("Page.getAppManifest", {}).get("errors")

    # A goal going in, notifications on (2, 7, 10): the score lights up, screen readers hear
    # it, the list's row shows the live minute.
    abrir("/partidos/1")
    esperar(listo)
    navegador.find_element(By.CSS_SELECTOR, "#controles summary").click()
    navegador.find_element(By.ID, "permiso").click()
    resultado["permiso"] = esperar(lambda: texto("#permiso-estado"), limite=10)
    navegador.execute_script(
        "window.anuncios = []; new MutationObserver(() => {"
        " const t = document.getElementById('anuncio').textContent;"
        " if (t) window.anuncios.push(t); })"
        ".observe(document.getElementById('anuncio'), {childList: true, characterData: true,"
        " subtree: true});")
    navegador.execute_script(
        "fetch('/api/partidos/1/jugar', {method: 'POST', headers: {'Content-Type': 'application/json',"
        " 'X-Marcador-Token': document.querySelector('meta[name=marcador-token]').content},"
        " body: JSON.stringify({msPorMinuto: 120})})")
    paso("jugar con avisos")
    esperar(lambda: texto("#marcador") != "0-0", limite=30, cada=0.005)
    resultado["resaltado"] = navegador.execute_script(
        "return document.getElementById('marcador').classList.contains('gol')")
    navegador.save_screenshot(capturas + "/partido-gol-1280.png")
    ancho(360)
    navegador.save_screenshot(capturas + "/partido-gol-360.png")
    resultado["anchoDelPartido360"] = navegador.execute_script(
        "return document.documentElement.scrollWidth")
    ancho(1280)
    resultado["anuncios"] = esperar(
        lambda: (lambda a: a if any(x.startswith("¡Gol!") for x in a) else None)(
            navegador.execute_script("return window.anuncios")), limite=30)
    abrir("/")
    esperar(listo)
    resultado["enVivo"] = esperar(lambda: (lambda h: h.text if "en-vivo" in h.get_attribute("class")
                                           else None)(
        navegador.find_element(By.CSS_SELECTOR, "#partido-1 .hora")), limite=20, cada=0.01)
    navegador.save_screenshot(capturas + "/lista-en-vivo-1280.png")
    resultado["trasElFinal"] = esperar(
        lambda: texto("#partido-1 .hora") == "Final" and texto("#partido-1"), limite=30)
    vigia.anotar(navegador, resultado, cuantas=5)
    vigia.olvidar()

    # 2. Quiet mode, two goals in one minute, a second window of the page minimised (hidden):
    # two banners one after the other, each on screen long enough to read; no system
    # notification anywhere while a page is in view.
    abrir("/partidos/1")
    esperar(listo)
    navegador.find_element(By.CSS_SELECTOR, "#controles summary").click()
    navegador.find_element(By.ID, "silencio").click()
    esperar(lambda: navegador.find_element(By.ID, "silencio").is_selected())
    principal = navegador.current_window_handle
    navegador.switch_to.new_window("window")
    abrir("/partidos/1")
    esperar(listo)
    navegador.minimize_window()
    resultado["visibilidadDelFondo"] = navegador.execute_script("return document.visibilityState")
    segunda = navegador.current_window_handle
    navegador.switch_to.window(principal)
    resultado["visibilidadPrincipal"] = navegador.execute_script("return document.visibilityState")
    navegador.find_element(By.ID, "jugar").click()
    paso("jugar en silencio")
    esperar(lambda: texto("#estado") == "Partido terminado", limite=30)
    # Five goals: five banners, 3 s each in turn. Wait for them all to have come and gone.
    resultado["banners"] = esperar(
        lambda: (lambda b: b if len(b) >= 5 and all("hasta" in x for x in b) else None)(
            navegador.execute_script("return window.marcadorBanners")), limite=40, cada=0.1)
    resultado["notificacionesEnSilencio"] = vigia.vistas()
    navegador.switch_to.window(segunda)
    resultado["bannersDelFondo"] = navegador.execute_script("return window.marcadorBanners")
    navegador.close()
    navegador.switch_to.window(principal)
    navegador.find_element(By.ID, "silencio").click()
    esperar(lambda: not navegador.find_element(By.ID, "silencio").is_selected())

    # 4. The server goes away: the page says so and Jugar says why in Spanish; it comes back
    # (a new process, same port and database): the page asks to be reloaded.
    resultado["conexionAntes"] = texto("#conexion")
    servidor.parar()
    paso("servidor parado")
    resultado["conexionSinServidor"] = esperar(
        lambda: texto("#conexion").startswith("Sin conexión") and texto("#conexion"), limite=20)
    navegador.find_element(By.ID, "jugar").click()
    resultado["errorSinServidor"] = esperar(lambda: texto("#error"), limite=10)
    oscuro(True)
    accesibilidad("partido-sin-servidor-oscuro")
    oscuro(False)
    servidor = Servidor(servidor.puerto)
    paso("servidor de nuevo")
    resultado["recargar"] = esperar(lambda: texto("#recargar"), limite=30)
    resultado["conexionDeNuevo"] = esperar(
        lambda: texto("#conexion") == "En directo" and texto("#conexion"), limite=20)
    navegador.find_element(By.CSS_SELECTOR, "#recargar button").click()
    esperar(listo)
    resultado["trasRecargar"] = navegador.find_elements(By.ID, "recargar") == []
    resultado["erroresDeConsola"] = [
        e["message"] for e in navegador.get_log("browser") if e.get("level") == "SEVERE"]
finally:
    navegador.quit()
    vigia.cerrar()
    try:
        servidor.parar()
    except Exception:
        pass
    with open(salida, "w", encoding="utf-8") as fichero:
        json.dump(resultado, fichero, ensure_ascii=False, indent=2)
