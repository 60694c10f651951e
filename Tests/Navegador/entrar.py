#!/usr/bin/env python3
"""Entering a `marcador servir --token` in real headless Chromium (issue 26).

Usage: entrar.py URL_BASE CLAVE RESULTADO.json

Opens the list as a stranger (it must land on /entrar, with no key in the page), enters a
wrong key, then the right one, opens partido 1 and presses «Gol a mano» for the home side:
the score must come back through the API and the event stream, both on the session cookie
(which the page's script cannot read: HttpOnly). Writes what it saw as JSON; the Swift test
decides what is right.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from espera import esperar

base, clave, salida = sys.argv[1], sys.argv[2], sys.argv[3]
resultado = {}


def entrar_con(texto):
    campo = navegador.find_element(By.ID, "clave")
    campo.clear()
    campo.send_keys(texto)
    navegador.find_element(By.CSS_SELECTOR, "form.entrada button").click()


opciones = webdriver.ChromeOptions()
for argumento in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--window-size=1280,900", "--lang=es"):
    opciones.add_argument(argumento)
navegador = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opciones)
try:
    navegador.get(base + "/")
    resultado["primeraRuta"] = navegador.current_url[len(base):]
    resultado["claveEnLaEntrada"] = clave in navegador.page_source
    entrar_con("no-es-la-clave-0123456789")
    resultado["trasClaveMala"] = esperar(
        lambda: navegador.find_element(By.CSS_SELECTOR, "p[role=alert]").text)
    entrar_con(clave)
    esperar(lambda: navegador.find_elements(By.CSS_SELECTOR, "#partidos li"))
    resultado["rutaTrasEntrar"] = navegador.current_url[len(base):]
    resultado["filas"] = len(navegador.find_elements(By.CSS_SELECTOR, "#partidos li"))
    resultado["cookieVisible"] = navegador.execute_script("return document.cookie")
    resultado["claveEnLaPagina"] = clave in navegador.page_source
    navegador.get(base + "/partidos/1")
    esperar(lambda: navegador.execute_script("return document.body.dataset.listo === 'si'"))
    navegador.find_element(By.CSS_SELECTOR, "#controles summary").click()
    navegador.find_element(By.ID, "gol-local").click()
    resultado["marcador"] = esperar(
        lambda: navegador.find_element(By.ID, "marcador").text == "1-0"
        and navegador.find_element(By.ID, "marcador").text)
    resultado["erroresDeConsola"] = [
        entrada["message"] for entrada in navegador.get_log("browser")
        if entrada["level"] == "SEVERE"]
finally:
    navegador.quit()
    with open(salida, "w", encoding="utf-8") as fichero:
        json.dump(resultado, fichero, ensure_ascii=False)
