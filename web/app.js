// marcador's pages: rendered by the server with their current state, kept live here by one
// event stream. Every text that comes from the server is set with textContent, never as HTML.
'use strict';

const meta = document.querySelector('meta[name="marcador-token"]');
const clave = meta ? meta.content : '';
const pagina = document.body.dataset.pagina;
const instancia = document.body.dataset.instancia;
const $ = (id) => document.getElementById(id);
let silencio = false;

// MARK: - Talking to the server

// The API: the page's key on every call; the server's Spanish sentence on failure, and ours
// when there is no server to answer.
async function api(metodo, ruta, cuerpo) {
  const opciones = { method: metodo, headers: { 'X-Marcador-Token': clave } };
  if (cuerpo !== undefined) {
    opciones.headers['Content-Type'] = 'application/json';
    opciones.body = JSON.stringify(cuerpo);
  }
  let respuesta;
  try {
    respuesta = await fetch(ruta, opciones);
  } catch (fallo) {
    throw new Error('No se pudo hablar con el servidor: ¿sigue en marcha «marcador servir»?');
  }
  const datos = await respuesta.json().catch(() => ({}));
  if (!respuesta.ok) {
    if (respuesta.status === 403 && /clave de la página/.test(datos.error || '')) {
      pedirRecarga('El servidor se ha reiniciado: recarga la página para seguir.');
    }
    throw new Error(datos.error || 'El servidor respondió ' + respuesta.status + '.');
  }
  return { datos, cursor: Number(respuesta.headers.get('X-Ultimo-Evento') || 0) };
}

function mostrarError(error) {
  const zona = $('error');
  if (!zona) return;
  zona.textContent = error.message;
  zona.hidden = false;
  clearTimeout(mostrarError.temporizador);
  mostrarError.temporizador = setTimeout(() => { zona.hidden = true; }, 8000);
}

// A page the server no longer knows (it restarted): say so, with a button, and keep saying it.
function pedirRecarga(texto) {
  let aviso = $('recargar');
  if (!aviso) {
    aviso = document.createElement('div');
    aviso.id = 'recargar';
    aviso.className = 'recargar';
    aviso.setAttribute('role', 'alert');
    const mensaje = document.createElement('span');
    const boton = document.createElement('button');
    boton.type = 'button';
    boton.textContent = 'Recargar';
    boton.addEventListener('click', () => location.reload());
    aviso.append(mensaje, boton);
    document.body.append(aviso);
  }
  aviso.firstChild.textContent = texto;
}

// MARK: - The connection

function pintarConexion(abierta) {
  const indicador = $('conexion');
  document.body.classList.toggle('desconectado', !abierta);
  if (indicador) {
    indicador.textContent = abierta ? 'En directo' : 'Sin conexión con el servidor: reintentando…';
  }
}

// The stream starts where this tab last was (it survives a reload), or else at the state the
// page was rendered with: nothing in between is missed, and each event is handled once.
const claveDelCursor = 'marcador-ultimo-evento';
function escuchar(cursor, manejadores) {
  const guardado = Number(sessionStorage.getItem(claveDelCursor));
  const desde = guardado > 0 && guardado < cursor ? guardado : cursor;
  const fuente = new EventSource('/eventos?desde=' + desde);
  fuente.addEventListener('open', () => pintarConexion(true));
  fuente.addEventListener('error', () => pintarConexion(false));
  fuente.addEventListener('hola', (evento) => {
    const datos = JSON.parse(evento.data);
    if (instancia && datos.instancia !== instancia) {
      pedirRecarga('El servidor se ha reiniciado: recarga la página para seguir.');
    }
  });
  // Events are handled one after another, and the cursor moves past one only once it is
  // handled (a notification handed to the Service Worker): a page left mid-way replays it.
  let cola = Promise.resolve();
  for (const [nombre, manejar] of Object.entries(manejadores)) {
    fuente.addEventListener(nombre, (evento) => {
      const datos = JSON.parse(evento.data);
      cola = cola
        .then(() => manejar(datos))
        .catch((error) => console.error(error))
        .then(() => sessionStorage.setItem(claveDelCursor, evento.lastEventId));
    });
  }
  return fuente;
}

// MARK: - Goals as they happen

// Banners wait their turn: two goals in one minute are two banners, one after the other.
const colaDeBanners = [];
let bannerEnPantalla = false;
window.marcadorBanners = [];
function mostrarBanner(texto) {
  colaDeBanners.push(texto);
  siguienteBanner();
}
function siguienteBanner() {
  if (bannerEnPantalla || colaDeBanners.length === 0) return;
  bannerEnPantalla = true;
  const texto = colaDeBanners.shift();
  const banner = $('banner');
  banner.textContent = texto;
  banner.hidden = false;
  window.marcadorBanners.push({ texto, desde: performance.now() });
  setTimeout(() => {
    banner.hidden = true;
    window.marcadorBanners[window.marcadorBanners.length - 1].hasta = performance.now();
    bannerEnPantalla = false;
    setTimeout(siguienteBanner, 200);
  }, 3000);
}

// For screen readers: said at once, whatever else is on the page.
function anunciar(texto) {
  const zona = $('anuncio');
  if (!zona) return;
  zona.textContent = '';
  setTimeout(() => { zona.textContent = texto; }, 50);
}

// `ready` rather than the registration's own promise: that one waits for the update check
// (a fetch of sw.js), which a busy machine once stretched past 3 s on a reloaded page whose
// worker was active all along.
if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => null);
const registroDelTrabajador =
  'serviceWorker' in navigator ? navigator.serviceWorker.ready : Promise.resolve(null);

// A notice from the `navegador` channel. With quiet mode, a visible page shows a banner, and
// no tab raises a system notification while one is visible (the Service Worker sees them all).
// It is handled (the page's cursor moves past it) once the Service Worker says what it did:
// a page reloaded while its message was on the way, which Chromium can drop, plays it again,
// and the tag makes the replay the same one notification.
window.marcadorAvisos = 0;
async function notificar(aviso) {
  window.marcadorAvisos += 1;
  const texto = aviso.titulo + ' ' + aviso.cuerpo;
  anunciar(texto);
  const aLaVista = document.visibilityState === 'visible';
  if (silencio && aLaVista) mostrarBanner(texto);
  const conPermiso = 'Notification' in window && Notification.permission === 'granted';
  // Never waits long for the Service Worker: events are handled in turn, and one stuck here
  // would hold back every later one (a run once saw the list never reach «Final»).
  const registro = await conPlazo(registroDelTrabajador, 3000);
  let resultado = 'sin-trabajador';
  if (conPermiso && registro && registro.active) {
    window.marcadorEntregas[aviso.identificador] = 'enviado';
    const respuesta = esperarRespuesta(aviso.identificador);
    registro.active.postMessage({ tipo: 'aviso', aviso, silencio });
    const mensaje = await conPlazo(respuesta, 5000);
    resultado = mensaje ? mensaje.resultado : 'sin-respuesta';
    if (resultado === 'rechazado') {
      console.error('La notificación no se pudo mostrar: ' + mensaje.error);
    }
  }
  window.marcadorEntregas[aviso.identificador] = resultado;
  // No system notification to be sure of: the goal is shown here, unless it already was.
  if (resultado !== 'mostrado' && resultado !== 'silenciado' && !(silencio && aLaVista)) {
    mostrarBanner(texto);
  }
}

function conPlazo(promesa, ms) {
  return Promise.race([promesa, new Promise((listo) => setTimeout(() => listo(null), ms))]);
}

// What the Service Worker did with each notice this page handed it: shown, held back by quiet
// mode, or refused by the system.
window.marcadorEntregas = {};
const respuestasPendientes = new Map();
function esperarRespuesta(identificador) {
  return new Promise((listo) => {
    const pendientes = respuestasPendientes.get(identificador) || [];
    pendientes.push(listo);
    respuestasPendientes.set(identificador, pendientes);
  });
}
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.addEventListener('message', (evento) => {
    const mensaje = evento.data || {};
    if (mensaje.tipo !== 'resultado') return;
    for (const listo of respuestasPendientes.get(mensaje.identificador) || []) listo(mensaje);
    respuestasPendientes.delete(mensaje.identificador);
  });
}

// MARK: - Kick-off in the viewer's zone

// The server writes kick-off times in its own zone; where it knows the instant it marks them
// (`data-saque`, seconds since 1970) and they are said again here in the browser's zone, as
// the server would have said them: `21:00` in a row, `hoy, 21:00` or `jueves, 14 de junio de
// 2018, 15:00` on a match's page.
const formatoDeHora = new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit', hour12: false });
const formatoDeDia = new Intl.DateTimeFormat('es-ES', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

function diaLocal(fecha) {
  return Date.UTC(fecha.getFullYear(), fecha.getMonth(), fecha.getDate()) / 86400000;
}

function textoDeSaque(segundos, forma) {
  const fecha = new Date(segundos * 1000);
  const hora = formatoDeHora.format(fecha);
  if (forma === 'hora') return hora;
  const nombre = { 0: 'hoy', 1: 'mañana', '-1': 'ayer' }[diaLocal(fecha) - diaLocal(new Date())];
  return (nombre || formatoDeDia.format(fecha)) + ', ' + hora;
}

function enTuZona(raiz) {
  for (const elemento of raiz.querySelectorAll('[data-saque]')) {
    const segundos = Number(elemento.dataset.saque);
    if (!Number.isFinite(segundos)) continue;
    elemento.textContent = textoDeSaque(segundos, elemento.dataset.forma);
    if (elemento.tagName === 'TIME') elemento.dateTime = new Date(segundos * 1000).toISOString();
  }
}

// MARK: - The list

function iniciarLista() {
  function pintarFila(situacion) {
    const fila = $('partido-' + situacion.partido);
    if (!fila) return;
    const hora = fila.querySelector('.hora');
    const resultado = fila.querySelector('.resultado');
    fila.dataset.estado = situacion.estado;
    hora.className = 'hora';
    if (situacion.estado !== 'sin_empezar') delete hora.dataset.saque;
    if (situacion.estado === 'en_juego') {
      // A break or the shoot-out says so; otherwise the minute, added time included.
      const pausa = /^(Descanso|Penaltis)/.exec(situacion.estadoTexto || '');
      hora.textContent = pausa
        ? pausa[1]
        : situacion.minuto + (situacion.anadido ? '+' + situacion.anadido : '') + "'";
      hora.classList.add('en-vivo');
    } else if (situacion.estado === 'terminado') {
      hora.textContent = 'Final';
      hora.classList.add('final');
    } else if (situacion.estado === 'cancelado') {
      hora.textContent = 'Cancelado';
      hora.classList.add('parado');
    } else if (situacion.estado === 'interrumpido') {
      hora.textContent = 'Parado';
      hora.classList.add('parado');
    }
    if (situacion.estado !== 'sin_empezar') resultado.textContent = situacion.marcador;
  }
  // The list changed (an import, a feed): the server renders it again.
  async function recargarLista() {
    // The view being looked at (`?vista=directo`, `?fecha=…`), not the whole list.
    const respuesta = await fetch(location.pathname + location.search, { headers: { Accept: 'text/html' } });
    const nueva = new DOMParser().parseFromString(await respuesta.text(), 'text/html');
    const main = nueva.getElementById('partidos');
    if (main) {
      $('partidos').replaceChildren(...main.childNodes);
      enTuZona($('partidos'));
    }
  }
  enTuZona(document);
  api('GET', '/api/ajustes').then(({ datos }) => { silencio = datos.silencio; })
    .catch(mostrarError);
  escuchar(Number(document.body.dataset.cursor || 0), {
    partido: pintarFila,
    notificacion: notificar,
    ajustes: (nuevos) => { silencio = nuevos.silencio; },
    partidos: () => recargarLista().catch(mostrarError),
    reinicio: () => recargarLista().catch(mostrarError),
  });
  document.body.dataset.listo = 'si';
}

// MARK: - The match screen

function iniciarPartido() {
  const id = Number(document.body.dataset.partido);
  enTuZona(document);
  let actual = JSON.parse(document.body.dataset.situacion || '{}');

  function goleadores(lista, lado, situacion) {
    const elementos = situacion.goles.filter((gol) => gol.lado === lado).map((gol) => {
      const elemento = document.createElement('li');
      const marcas = (gol.penalti ? ' (p)' : '') + (gol.enPropiaPuerta ? ' (pp)' : '');
      elemento.textContent = gol.jugador + marcas + ' ';
      const minuto = document.createElement('span');
      minuto.className = 'nota';
      minuto.textContent = gol.minuto + "'";
      elemento.append(minuto);
      return elemento;
    });
    const [local, visitante] = (situacion.golesAMano || '0-0').split('-').map(Number);
    for (let i = 0; i < (lado === 'local' ? local : visitante); i += 1) {
      const elemento = document.createElement('li');
      elemento.className = 'a-mano';
      elemento.textContent = 'Gol a mano';
      elementos.push(elemento);
    }
    $(lista).replaceChildren(...elementos);
  }

  function pintar(situacion) {
    const antes = actual.marcador;
    actual = situacion;
    $('marcador').textContent = situacion.marcador;
    $('estado').textContent = situacion.estadoTexto;
    $('minuto').textContent =
      situacion.minuto + (situacion.anadido ? '+' + situacion.anadido : '');
    $('duracion').textContent = situacion.duracion;
    $('ultimo-aviso').textContent = situacion.ultimoAviso;
    goleadores('goleadores-local', 'local', situacion);
    goleadores('goleadores-visitante', 'visitante', situacion);
    // The timeline as the server draws it (Vistas.cronologia): minute, kind, text.
    $('cronologia').replaceChildren(...(situacion.cronologia || []).map((suceso) => {
      const elemento = document.createElement('li');
      elemento.className = 'suceso ' + suceso.clase;
      if (suceso.lado) elemento.dataset.lado = suceso.lado;
      const minuto = document.createElement('span');
      minuto.className = 'minuto';
      minuto.textContent = suceso.minuto + "'";
      const texto = document.createElement('span');
      texto.className = 'texto';
      texto.textContent = suceso.texto;
      elemento.append(minuto, ' ', texto);
      return elemento;
    }));
    const alineaciones = situacion.alineaciones || [];
    $('alineaciones').hidden = alineaciones.length === 0;
    $('lista-alineaciones').replaceChildren(...alineaciones.map((texto) => {
      const elemento = document.createElement('li');
      const corte = texto.indexOf(': ');
      if (corte < 0) {
        elemento.textContent = texto;
      } else {
        const equipo = document.createElement('strong');
        equipo.textContent = texto.slice(0, corte);
        elemento.append(equipo, texto.slice(corte));
      }
      return elemento;
    }));
    $('penaltis').hidden = !situacion.penaltis;
    $('tanda').textContent = situacion.penaltis || '';
    $('sin-goles').hidden = situacion.goles.length > 0;
    $('sin-goles').textContent = situacion.sinGoles;
    if (antes !== undefined && antes !== situacion.marcador) {
      // The goal moment: the score lights up, and screen readers hear it.
      const marcador = $('marcador');
      marcador.classList.remove('gol');
      void marcador.offsetWidth;
      marcador.classList.add('gol');
      const ultimo = situacion.goles[situacion.goles.length - 1];
      anunciar(ultimo && situacion.estado !== 'sin_empezar'
        ? 'Gol: ' + ultimo.jugador + ', minuto ' + ultimo.minuto + '. ' + situacion.marcador
        : 'Marcador: ' + situacion.marcador);
    }
  }

  function pintarAjustes(ajustes) {
    silencio = ajustes.silencio;
    $('silencio').checked = ajustes.silencio;
    for (const opcion of document.querySelectorAll('input[name="duracion"]')) {
      opcion.checked = Number(opcion.value) === ajustes.duracion;
    }
    pintarPermiso(ajustes.avisos);
  }

  function pintarPermiso(activados) {
    const navegador = 'Notification' in window ? Notification.permission : 'denied';
    $('permiso').hidden = navegador === 'granted' && activados;
    $('permiso-estado').textContent =
      navegador === 'denied' ? 'El navegador no permite notificaciones: saldrán dentro de la página.'
        : navegador === 'granted' && activados ? 'Avisos de gol activados.' : '';
  }

  function pintarSeguidos(siguiendo) {
    for (const boton of document.querySelectorAll('.seguir button')) {
      const sigue = siguiendo.includes(boton.dataset.equipo);
      boton.setAttribute('aria-pressed', String(sigue));
      boton.textContent = (sigue ? 'Dejar de seguir a ' : 'Seguir a ') + boton.dataset.equipo;
    }
  }

  function accion(boton, llamada) {
    $(boton).addEventListener('click', () => llamada().catch(mostrarError));
  }
  accion('jugar', () => api('POST', '/api/partidos/' + id + '/jugar'));
  accion('gol-local', () => api('POST', '/api/partidos/' + id + '/gol-a-mano', { lado: 'local' }));
  accion('gol-visitante',
    () => api('POST', '/api/partidos/' + id + '/gol-a-mano', { lado: 'visitante' }));
  accion('permiso', async () => {
    const respuesta = 'Notification' in window ? await Notification.requestPermission() : 'denied';
    if (respuesta === 'granted') {
      await api('POST', '/api/partidos/' + id + '/ajustes', { avisos: true });
    }
    pintarPermiso(respuesta === 'granted');
  });
  for (const boton of document.querySelectorAll('.seguir button')) {
    boton.addEventListener('click', () => {
      const seguir = boton.getAttribute('aria-pressed') !== 'true';
      api('POST', '/api/seguir', { equipo: boton.dataset.equipo, seguir })
        .then(({ datos }) => pintarSeguidos(datos.siguiendo)).catch(mostrarError);
    });
  }
  $('silencio').addEventListener('change', (evento) => {
    api('POST', '/api/partidos/' + id + '/ajustes', { silencio: evento.target.checked })
      .catch(mostrarError);
  });
  for (const opcion of document.querySelectorAll('input[name="duracion"]')) {
    opcion.addEventListener('change', () => {
      api('POST', '/api/partidos/' + id + '/ajustes', { duracion: Number(opcion.value) })
        .catch(mostrarError);
    });
  }
  async function recargar() {
    const { datos } = await api('GET', '/api/partidos/' + id);
    pintar(datos.situacion);
    pintarAjustes(datos.ajustes);
    pintarSeguidos(datos.siguiendo);
  }
  escuchar(Number(document.body.dataset.cursor || 0), {
    partido: (situacion) => { if (situacion.partido === id) pintar(situacion); },
    notificacion: notificar,
    ajustes: pintarAjustes,
    partidos: () => recargar().catch(mostrarError),
    reinicio: () => recargar().catch(mostrarError),
  });
  iniciarEmpuje().catch(mostrarError);
  // The settings and what is followed, which the rendered page shows but does not keep.
  recargar().then(() => { document.body.dataset.listo = 'si'; }).catch(mostrarError);
}

// MARK: - Push with the page closed

// Offered only where the browser has push and the server a VAPID key (contract.md §19): the
// browser subscribes with the server's public key and hands the subscription over, and the
// server keeps it as a device that follows what this page's notifications follow.
const claveDelDispositivo = 'marcador-dispositivo';

function bytesDeBase64url(texto) {
  const relleno = '='.repeat((4 - (texto.length % 4)) % 4);
  const binario = atob(texto.replace(/-/g, '+').replace(/_/g, '/') + relleno);
  return Uint8Array.from(binario, (c) => c.charCodeAt(0));
}

async function iniciarEmpuje() {
  const zona = $('empuje-zona');
  if (!zona || !('serviceWorker' in navigator) || !('PushManager' in window)) return;
  const publica = (await api('GET', '/empuje/clave')).datos.clave;
  if (!publica) return; // no Web Push on this server: nothing to offer
  const registro = await navigator.serviceWorker.ready;
  const boton = $('empuje');
  const pintarEmpuje = (activo, texto) => {
    boton.setAttribute('aria-pressed', String(activo));
    $('empuje-estado').textContent = texto;
  };
  const actual = await registro.pushManager.getSubscription();
  pintarEmpuje(Boolean(actual && localStorage.getItem(claveDelDispositivo)), '');
  zona.hidden = false;
  boton.addEventListener('click', () => (async () => {
    if (boton.getAttribute('aria-pressed') === 'true') {
      const id = localStorage.getItem(claveDelDispositivo);
      const respuesta = id ? (await api('DELETE', '/dispositivos/' + encodeURIComponent(id))).datos : null;
      localStorage.removeItem(claveDelDispositivo);
      const suscripcion = await registro.pushManager.getSubscription();
      if (suscripcion) await suscripcion.unsubscribe();
      pintarEmpuje(false, respuesta ? respuesta.mensaje : '');
      return;
    }
    const permiso = 'Notification' in window ? await Notification.requestPermission() : 'denied';
    if (permiso !== 'granted') throw new Error('El navegador no da permiso para mostrar avisos.');
    const suscripcion = await registro.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: bytesDeBase64url(publica),
    });
    const { datos } = await api('POST', '/dispositivos', suscripcion.toJSON());
    localStorage.setItem(claveDelDispositivo, datos.id);
    pintarEmpuje(true, datos.mensaje);
  })().catch(mostrarError));
}

if (pagina === 'lista') iniciarLista();
else if (pagina === 'partido') iniciarPartido();
