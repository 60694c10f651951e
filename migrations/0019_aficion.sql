-- The notices of every moment a fan follows (contract.md): a player sent off («Tarjeta roja»),
-- a side's lineup published («Alineaciones»), a kick-off coming («Empieza pronto»). One rebuild
-- of `aviso` for the three kinds: SQLite cannot change a CHECK, so the table is made again
-- (create, copy, drop, rename) with foreign keys off as migrations run, and its indexes too.
-- A channel's delay against spoilers (`--retraso SEGUNDOS`): its deliveries are due that long
-- after the notice.
ALTER TABLE canal ADD COLUMN retraso REAL NOT NULL DEFAULT 0 CHECK (retraso >= 0);
-- How long before kick-off its reminders come (`--antes`); NULL: 15 minutes.
ALTER TABLE canal ADD COLUMN antes REAL CHECK (antes IS NULL OR antes > 0);
CREATE TABLE aviso_nuevo (
    id INTEGER PRIMARY KEY,
    ejecucion_id INTEGER REFERENCES ejecucion (id) ON DELETE CASCADE,
    partido_id INTEGER,
    tipo TEXT NOT NULL DEFAULT 'gol'
        CHECK (tipo IN ('gol', 'prueba', 'anulado', 'corregido', 'inicio', 'descanso',
            'prorroga', 'penaltis', 'final', 'roja', 'alineacion', 'recordatorio')),
    identificador TEXT NOT NULL,
    titulo TEXT NOT NULL,
    cuerpo TEXT NOT NULL,
    minuto INTEGER NOT NULL,
    anadido INTEGER NOT NULL DEFAULT 0,
    jugador TEXT NOT NULL,
    equipo TEXT NOT NULL,
    marcador_local INTEGER NOT NULL,
    marcador_visitante INTEGER NOT NULL,
    adjunto TEXT,
    creado REAL NOT NULL,
    enriquecido INTEGER CHECK (enriquecido IN (0, 1)),
    motivo_adjunto TEXT,
    seguimiento_id INTEGER REFERENCES seguimiento (id) ON DELETE CASCADE,
    UNIQUE (ejecucion_id, identificador)
);
INSERT INTO aviso_nuevo (id, ejecucion_id, partido_id, tipo, identificador, titulo, cuerpo, minuto,
    anadido, jugador, equipo, marcador_local, marcador_visitante, adjunto, creado, enriquecido,
    motivo_adjunto, seguimiento_id)
SELECT id, ejecucion_id, partido_id, tipo, identificador, titulo, cuerpo, minuto, anadido, jugador,
    equipo, marcador_local, marcador_visitante, adjunto, creado, enriquecido, motivo_adjunto,
    seguimiento_id
FROM aviso;
DROP TABLE aviso;
ALTER TABLE aviso_nuevo RENAME TO aviso;
CREATE INDEX aviso_creado ON aviso (creado);
CREATE INDEX aviso_de_seguimiento ON aviso (seguimiento_id) WHERE seguimiento_id IS NOT NULL;
-- One reminder per match, whichever process queues it first.
CREATE UNIQUE INDEX aviso_recordatorio ON aviso (partido_id) WHERE tipo = 'recordatorio';
