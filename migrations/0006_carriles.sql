-- The delivery core of round 2 (delivery.md): per-channel lanes that keep each run's notices in
-- order, leases that are renewed while their holder works, channel types owned by the code.
--
-- Rebuilt tables are copied whole: migrations run with foreign keys off (and are checked with
-- foreign_key_check before commit), so dropping a table never cascades to what hangs from it.

-- Channels: the list of types lives in the code (TipoDeCanal), not in a CHECK here, so a new
-- channel type needs no table rebuild. `filtros` is a JSON object of what the channel follows.
CREATE TABLE canal_nuevo (
    nombre TEXT PRIMARY KEY,
    tipo TEXT NOT NULL,
    activo INTEGER NOT NULL DEFAULT 1 CHECK (activo IN (0, 1)),
    ajustes TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(ajustes)),
    filtros TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(filtros))
) WITHOUT ROWID;
INSERT INTO canal_nuevo (nombre, tipo, activo, ajustes)
    SELECT nombre, tipo, activo, ajustes FROM canal;
DROP TABLE canal;
ALTER TABLE canal_nuevo RENAME TO canal;

-- Deliveries carry their run, so "no later notice of a run while an earlier one is leased"
-- is one indexed lookup. `intentos` now counts attempts with a recorded outcome.
CREATE TABLE entrega_nueva (
    aviso_id INTEGER NOT NULL REFERENCES aviso (id) ON DELETE CASCADE,
    canal TEXT NOT NULL,
    ejecucion_id INTEGER NOT NULL,
    estado TEXT NOT NULL DEFAULT 'pendiente'
        CHECK (estado IN ('pendiente', 'entregada', 'fallida', 'descartada', 'caducada')),
    intentos INTEGER NOT NULL DEFAULT 0,
    proximo_intento REAL NOT NULL,
    arrendatario TEXT,
    arrendado_hasta REAL,
    ultimo_error TEXT,
    entregada_en REAL,
    PRIMARY KEY (aviso_id, canal)
) WITHOUT ROWID;
INSERT INTO entrega_nueva (aviso_id, canal, ejecucion_id, estado, intentos, proximo_intento,
        arrendatario, arrendado_hasta, ultimo_error, entregada_en)
    SELECT e.aviso_id, e.canal, a.ejecucion_id, e.estado, e.intentos, e.proximo_intento,
        e.arrendatario, e.arrendado_hasta, e.ultimo_error, e.entregada_en
    FROM entrega e JOIN aviso a ON a.id = e.aviso_id;
DROP TABLE entrega;
ALTER TABLE entrega_nueva RENAME TO entrega;

-- A lane scans its channel's pending deliveries in notice order.
CREATE INDEX entrega_pendiente ON entrega (canal, aviso_id) WHERE estado = 'pendiente';
-- Leased deliveries: few at any time; the ordering rule and lease renewal look here.
CREATE INDEX entrega_arrendada ON entrega (canal, ejecucion_id, aviso_id)
    WHERE estado = 'pendiente' AND arrendado_hasta IS NOT NULL;
CREATE INDEX entrega_arrendatario ON entrega (arrendatario) WHERE arrendatario IS NOT NULL;
CREATE INDEX entrega_estado ON entrega (estado);

-- Runs across hosts (the PostgreSQL store shares this shape): the owner's host name.
ALTER TABLE ejecucion ADD COLUMN anfitrion TEXT;

-- The seed's attachment is part of the binary now, not a file next to the database.
UPDATE evento SET adjunto = 'semilla:gol.gif'
WHERE adjunto LIKE 'file://%/marcador-semillas/gol.gif';
