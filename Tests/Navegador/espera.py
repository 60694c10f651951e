"""The scripts' one way to wait for a state of the page, with a deadline."""
import time


def esperar(condicion, limite=30, cada=0.1):
    """Polls `condicion` until it is truthy, or `limite` seconds pass; then returns its value
    (`None` if it still fails). Polls back off from 5 ms to `cada`: each poll is a WebDriver
    round trip through chromedriver into the page, and polling every 20 ms kept Chromium and
    chromedriver busy beside the programs the suite was testing. An element that vanished
    mid-repaint or mid-navigation just means «not yet»."""
    fin = time.monotonic() + limite
    pausa = min(0.005, cada)
    while time.monotonic() < fin:
        try:
            valor = condicion()
        except Exception:
            valor = None
        if valor:
            return valor
        time.sleep(pausa)
        pausa = min(pausa * 2, cada)
    try:
        return condicion()
    except Exception:
        return None
