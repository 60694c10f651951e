// marcador's Service Worker: the page asks it to show «¡Gol!» notifications (it has no push
// subscription: notices arrive through the page's event stream), and a click on one opens
// its match.
'use strict';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (evento) => evento.waitUntil(self.clients.claim()));
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
