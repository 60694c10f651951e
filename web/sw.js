// marcador's Service Worker: it shows the «¡Gol!» notifications the pages hand it (notices
// arrive through each page's event stream) and those the push service brings with every page
// closed (Web Push, once the page subscribed: contract.md §19), and a click on one opens its
// match. It sees every tab: with quiet mode on, nothing a page hands it is raised while one of
// them is in view (that tab shows its banner instead).
'use strict';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (evento) => evento.waitUntil(self.clients.claim()));

self.addEventListener('message', (evento) => {
  const mensaje = evento.data || {};
  if (mensaje.tipo !== 'aviso' || !mensaje.aviso) return;
  const aviso = mensaje.aviso;
  evento.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true })
    .then((ventanas) => {
      if (mensaje.silencio && ventanas.some((v) => v.visibilityState === 'visible')) return null;
      // The tag is the goal's identifier: an annulment replaces its goal's notification, and
      // the same notice from two tabs is one notification.
      const opciones = {
        body: aviso.cuerpo, tag: aviso.identificador, icon: '/icono-192.png',
        badge: '/icono-192.png', data: { partido: aviso.partido },
        silent: Boolean(aviso.silencioso), renotify: aviso.tipo === 'anulado',
      };
      if (aviso.imagen) opciones.image = aviso.imagen;
      return self.registration.showNotification(aviso.titulo, opciones).then(() => 'mostrado');
    })
    // The page that handed the notice over hears what became of it: if the system refused
    // it, that page shows its banner instead, and the notice is not lost.
    .then((resultado) => responder(evento.source, aviso, resultado || 'silenciado', null),
      (error) => responder(evento.source, aviso, 'rechazado', String(error))));
});

// A push: the server encrypted the notice for this browser alone (RFC 8291); the browser has
// decrypted it. It is shown whatever the pages are doing: no page may be open at all.
self.addEventListener('push', (evento) => {
  let aviso;
  try {
    aviso = evento.data ? evento.data.json() : {};
  } catch (error) {
    aviso = { cuerpo: evento.data ? evento.data.text() : '' };
  }
  const opciones = {
    body: String(aviso.cuerpo || ''), tag: String(aviso.identificador || 'marcador'),
    icon: '/icono-192.png', badge: '/icono-192.png',
    data: { partido: Number(aviso.partido) || null },
    silent: Boolean(aviso.tranquilo),
    renotify: aviso.tipo === 'anulado' || aviso.tipo === 'corregido',
  };
  evento.waitUntil(self.registration.showNotification(String(aviso.titulo || 'marcador'), opciones));
});

function responder(pagina, aviso, resultado, error) {
  if (pagina) pagina.postMessage({ tipo: 'resultado', identificador: aviso.identificador, resultado, error });
}

self.addEventListener('notificationclick', (evento) => {
  evento.notification.close();
  const partido = evento.notification.data && evento.notification.data.partido;
  const destino = partido ? '/partidos/' + partido : '/';
  evento.waitUntil(self.clients.matchAll({ type: 'window' }).then((ventanas) => {
    for (const ventana of ventanas) {
      if (new URL(ventana.url).pathname === destino) return ventana.focus();
    }
    return self.clients.openWindow(destino);
  }));
});
