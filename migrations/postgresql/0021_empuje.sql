-- Real push (contract.md §19): the provider's credentials, kept in the store so every process
-- that delivers (`avisos vigilar`, `servir`, `jugar`) signs with the same keys: APNs' team, key
-- id, topic and `.p8` key; the VAPID key pair and its contact. Only the database's owner role
-- reads it. Devices themselves are channels (`canal.tipo` `apns-dispositivo` or `webpush`), so
-- they share the outbox's deliveries, leases, filters and delays.
CREATE TABLE credencial (
    clave text PRIMARY KEY,
    valor text NOT NULL
);
