// marcador's pages: the match list and the lessons' screen, kept live by one event stream.
// Every text that comes from the server is set with textContent, never as HTML.
'use strict';

const clave = document.querySelector('meta[name="marcador-token"]').content;
const pagina = document.body.dataset.pagina;
const $ = (id) => document.getElementById(id);
let silencio = false;

// The API: the page's key on every call; the server's Spanish sentence on failure.
async function api(metodo, ruta, cuerpo) {
  const opciones = { method: metodo, headers: { 'X-Marcador-Token': clave } };
  if (cuerpo !== undefined) {
    opciones.headers['Content-Type'] = 'application/json';
    opciones.body = JSON.stringify(cuerpo);
  }
  const respuesta = await fetch(ruta, opciones);
  const datos = await respuesta.json().catch(() => ({}));
  if (!respuesta.ok) throw new Error(datos.error || 'El servidor respondió ' + respuesta.status);
  return { datos, cursor: Number(respuesta.headers.get('X-Ultimo-Evento') || 0) };
}

function mostrarError(error) {
  const zona = $('error');
  if (!zona) return;
  zona.textContent = error.message;
  zona.hidden = false;
  setTimeout(() => { zona.hidden = true; }, 6000);
}

// The stream starts where this tab last was (it survives a reload), or else at the state just
// loaded: nothing in between is missed, and each event is handled once.
const claveDelCursor = 'marcador-ultimo-evento';
function escuchar(cursor, manejadores) {
  const guardado = Number(sessionStorage.getItem(claveDelCursor));
  const desde = guardado > 0 && guardado < cursor ? guardado : cursor;
  const fuente = new EventSource('/eventos?desde=' + desde);
  for (const [nombre, manejar] of Object.entries(manejadores)) {
    fuente.addEventListener(nombre, (evento) => {
      sessionStorage.setItem(claveDelCursor, evento.lastEventId);
      manejar(JSON.parse(evento.data));
    });
  }
  return fuente;
}

// «¡Gol!»: a system notification through the Service Worker (tag = the notice's identifier, so
// a redelivery replaces it), unless quiet mode is on and the page is in view, or there is no
// permission: then a banner inside the page.
let registroDelTrabajador = null;
if ('serviceWorker' in navigator) {
  registroDelTrabajador = navigator.serviceWorker.register('/sw.js').then(
    () => navigator.serviceWorker.ready,
    () => null);
}

async function notificar(aviso) {
  const aLaVista = document.visibilityState === 'visible';
  const conPermiso = 'Notification' in window && Notification.permission === 'granted';
  if (conPermiso && !(silencio && aLaVista) && registroDelTrabajador) {
    const registro = await registroDelTrabajador;
    if (registro) {
      // The tag is the goal's identifier: an annulment replaces its goal's notification;
      // quiet hours show it without sound or vibration.
      const opciones = { body: aviso.cuerpo, tag: aviso.identificador, icon: '/icono.svg',
                         data: { partido: aviso.partido }, silent: Boolean(aviso.silencioso),
                         renotify: aviso.tipo === 'anulado' };
      if (aviso.imagen) opciones.image = aviso.imagen;
      await registro.showNotification(aviso.titulo, opciones);
      return;
    }
  }
  mostrarBanner(aviso.titulo + ' ' + aviso.cuerpo);
}

let temporizadorDelBanner = null;
function mostrarBanner(texto) {
  const banner = $('banner');
  banner.textContent = texto;
  banner.hidden = false;
  clearTimeout(temporizadorDelBanner);
  temporizadorDelBanner = setTimeout(() => { banner.hidden = true; }, 5000);
}

// MARK: - The list

async function iniciarLista() {
  const filas = new Map();
  async function cargar() {
    const { datos, cursor } = await api('GET', '/api/partidos');
    const lista = $('partidos');
    lista.replaceChildren();
    filas.clear();
    for (const partido of datos) {
      const enlace = document.createElement('a');
      enlace.href = '/partidos/' + partido.id;
      enlace.id = 'partido-' + partido.id;
      const equipos = document.createElement('span');
      equipos.className = 'equipos';
      equipos.textContent = partido.local + ' – ' + partido.visitante;
      const marcador = document.createElement('span');
      marcador.className = 'marcador';
      const estado = document.createElement('span');
      estado.className = 'estado';
      const minuto = document.createElement('span');
      minuto.className = 'minuto';
      enlace.append(equipos, marcador, estado, minuto);
      const elemento = document.createElement('li');
      elemento.append(enlace);
      lista.append(elemento);
      const fila = { marcador, estado, minuto };
      filas.set(partido.id, fila);
      pintarFila(fila, partido);
    }
    $('cargando').hidden = true;
    $('vacio').hidden = datos.length > 0;
    return cursor;
  }
  function pintarFila(fila, situacion) {
    fila.marcador.textContent = situacion.marcador;
    fila.estado.textContent = situacion.estadoTexto;
    fila.minuto.textContent = situacion.minuto + "'";
  }
  const [cursor, ajustes] = await Promise.all([cargar(), api('GET', '/api/ajustes')]);
  silencio = ajustes.datos.silencio;
  escuchar(cursor, {
    partido: (situacion) => {
      const fila = filas.get(situacion.partido);
      if (fila) pintarFila(fila, situacion);
    },
    notificacion: notificar,
    ajustes: (nuevos) => { silencio = nuevos.silencio; },
    partidos: () => cargar().catch(mostrarError),
    reinicio: () => cargar().catch(mostrarError),
  });
}

// MARK: - The match screen

async function iniciarPartido() {
  const id = Number(document.body.dataset.partido);
  async function cargar() {
    const { datos, cursor } = await api('GET', '/api/partidos/' + id);
    $('local').textContent = datos.local;
    $('visitante').textContent = datos.visitante;
    $('gol-local-nombre').textContent = datos.local;
    $('gol-visitante-nombre').textContent = datos.visitante;
    pintar(datos.situacion);
    pintarAjustes(datos.ajustes);
    return cursor;
  }
  function pintar(situacion) {
    $('marcador').textContent = situacion.marcador;
    $('estado').textContent = situacion.estadoTexto;
    $('minuto').textContent = situacion.minuto;
    $('duracion').textContent = situacion.duracion;
    $('ultimo-aviso').textContent = situacion.ultimoAviso;
    const goles = $('goles');
    goles.replaceChildren(...situacion.goles.map((gol) => {
      const elemento = document.createElement('li');
      elemento.textContent = gol.minuto + "' " + gol.jugador + ' (' + gol.equipo + ') ' + gol.marcador;
      return elemento;
    }));
    $('sin-goles').hidden = situacion.goles.length > 0;
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
        : navegador === 'granted' && activados ? 'Notificaciones activadas.' : '';
  }
  function accion(boton, llamada) {
    $(boton).addEventListener('click', () => llamada().catch(mostrarError));
  }
  accion('jugar', () => api('POST', '/api/partidos/' + id + '/jugar'));
  accion('gol-local', () => api('POST', '/api/partidos/' + id + '/gol-a-mano', { lado: 'local' }));
  accion('gol-visitante', () => api('POST', '/api/partidos/' + id + '/gol-a-mano', { lado: 'visitante' }));
  accion('permiso', async () => {
    const respuesta = 'Notification' in window ? await Notification.requestPermission() : 'denied';
    if (respuesta === 'granted') {
      await api('POST', '/api/partidos/' + id + '/ajustes', { avisos: true });
    }
    pintarPermiso(respuesta === 'granted');
  });
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
  const cursor = await cargar();
  escuchar(cursor, {
    partido: (situacion) => { if (situacion.partido === id) pintar(situacion); },
    notificacion: notificar,
    ajustes: pintarAjustes,
    partidos: () => cargar().catch(mostrarError),
    reinicio: () => cargar().catch(mostrarError),
  });
  document.body.dataset.listo = 'si';
}

(pagina === 'lista' ? iniciarLista() : iniciarPartido()).catch(mostrarError);
