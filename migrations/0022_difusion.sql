-- One goal, a million devices (contract.md §20): a notice reaches devices through shards, not
-- one delivery row per device. A shard is a range of device ids (from `desde`, included,
-- to `hasta`, excluded; `hasta` NULL: to the last one) of one provider, written in the notice's
-- transaction; a dispatcher leases it, streams its devices in id order and commits `cursor`
-- (the last device whose outcome is known) as it goes, so the next holder resumes there.
-- A device that must be tried again later (429, 5xx, no answer, its own delay) gets a shard of
-- its own (`unico` = 1, `desde` = the device), due at its backoff: one slow endpoint
-- never holds the rest.
CREATE INDEX canal_por_tipo ON canal (tipo, activo, nombre);
CREATE TABLE difusion (
    id INTEGER PRIMARY KEY,
    aviso_id INTEGER NOT NULL REFERENCES aviso (id) ON DELETE CASCADE,
    tipo TEXT NOT NULL CHECK (tipo IN ('apns-dispositivo', 'webpush')),
    -- The order key of entrega.ejecucion_id: a run's id, a live match's negated, 0 otherwise.
    orden INTEGER NOT NULL,
    unico INTEGER NOT NULL DEFAULT 0 CHECK (unico IN (0, 1)),
    desde TEXT NOT NULL,
    hasta TEXT,
    cursor TEXT,
    estado TEXT NOT NULL DEFAULT 'pendiente'
        CHECK (estado IN ('pendiente', 'entregada', 'fallida', 'descartada', 'caducada')),
    intentos INTEGER NOT NULL DEFAULT 0,
    proximo_intento REAL NOT NULL,
    arrendatario TEXT,
    arrendado_hasta REAL,
    entregadas INTEGER NOT NULL DEFAULT 0,
    fallidas INTEGER NOT NULL DEFAULT 0,
    retiradas INTEGER NOT NULL DEFAULT 0,
    ultimo_error TEXT
);
CREATE INDEX difusion_pendiente ON difusion (tipo, orden, aviso_id) WHERE estado = 'pendiente';
CREATE INDEX difusion_reintento ON difusion (tipo, desde, aviso_id)
    WHERE unico = 1 AND estado = 'pendiente';
CREATE INDEX difusion_arrendatario ON difusion (arrendatario) WHERE arrendatario IS NOT NULL;
CREATE INDEX difusion_aviso ON difusion (aviso_id);
