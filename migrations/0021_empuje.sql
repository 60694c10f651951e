-- Real push (contract.md §19): the provider's credentials, kept in the store so every process
-- that delivers (`avisos vigilar`, `servir`, `jugar`) signs with the same keys: APNs' team, key
-- id, topic and `.p8` key; the VAPID key pair and its contact. The database file is its
-- owner's alone (created 0600). Devices themselves are channels (`canal.tipo` `apns-dispositivo`
-- or `webpush`), so they share the outbox's deliveries, leases, filters and delays.
CREATE TABLE credencial (
    clave TEXT PRIMARY KEY,
    valor TEXT NOT NULL
) WITHOUT ROWID;
