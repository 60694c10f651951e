// marcador's Service Worker: it shows the «¡Gol!» notifications the pages hand it (there is no
// push subscription: notices arrive through each page's event stream), and a click on one
// opens its match. It sees every tab: with quiet mode on, nothing is raised while one of them
// is in view (that tab shows its banner instead).
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
