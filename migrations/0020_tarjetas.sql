-- Red cards in a match's script (contract.md: «Tarjeta roja»): a scripted match plays them
-- minute by minute like its goals, and a live match keeps the ones its feed gave, for the
-- page's timeline, with its substitutions and its goals' assists. A card is a row of `evento`
-- with `tipo = 'roja'`: the player sent off and his side, `doble_amarilla` for a second yellow;
-- a substitution `tipo = 'cambio'`: the player coming on, `sale` the one going off; a goal's
-- `asistencia` who made the pass. Goal queries read `tipo = 'gol'` only.
-- SQLite cannot change a CHECK, so the table is rebuilt (create, copy, drop, rename) with
-- foreign keys off as migrations run, and its index made again.
CREATE TABLE evento_nuevo (
    id INTEGER PRIMARY KEY,
    partido_id INTEGER NOT NULL REFERENCES partido (id) ON DELETE CASCADE,
    orden INTEGER NOT NULL,
    tipo TEXT NOT NULL DEFAULT 'gol' CHECK (tipo IN ('gol', 'roja', 'cambio')),
    minuto INTEGER NOT NULL CHECK (minuto BETWEEN 1 AND 120),
    anadido INTEGER NOT NULL DEFAULT 0 CHECK (anadido >= 0),
    jugador_id INTEGER NOT NULL REFERENCES jugador (id),
    -- The side credited with the goal; for a card, the side of the player sent off.
    lado TEXT NOT NULL CHECK (lado IN ('local', 'visitante')),
    penalti INTEGER NOT NULL DEFAULT 0 CHECK (penalti IN (0, 1)),
    en_propia_puerta INTEGER NOT NULL DEFAULT 0 CHECK (en_propia_puerta IN (0, 1)),
    adjunto TEXT,
    doble_amarilla INTEGER NOT NULL DEFAULT 0 CHECK (doble_amarilla IN (0, 1)),
    asistencia TEXT,
    sale TEXT,
    UNIQUE (partido_id, orden)
);
INSERT INTO evento_nuevo (id, partido_id, orden, tipo, minuto, anadido, jugador_id, lado,
    penalti, en_propia_puerta, adjunto)
SELECT id, partido_id, orden, tipo, minuto, anadido, jugador_id, lado, penalti,
    en_propia_puerta, adjunto
FROM evento;
DROP TABLE evento;
ALTER TABLE evento_nuevo RENAME TO evento;
CREATE INDEX evento_jugador ON evento (jugador_id);
-- The seeds' partido 2 gets its red card where it is still the seed match (a database seeded
-- before this migration); a fresh database gets it from the seeds, which load after.
INSERT INTO jugador (nombre, equipo_id)
SELECT 'Björn', 4 WHERE EXISTS (
    SELECT 1 FROM partido WHERE id = 2 AND local_id = 3 AND visitante_id = 4)
ON CONFLICT DO NOTHING;
INSERT INTO evento (partido_id, orden, tipo, minuto, anadido, jugador_id, lado, doble_amarilla)
SELECT 2, (SELECT max(orden) + 1 FROM evento WHERE partido_id = 2), 'roja', 78, 0, j.id,
    'visitante', 1
FROM jugador j
WHERE j.nombre = 'Björn' AND j.equipo_id = 4
    AND EXISTS (SELECT 1 FROM partido WHERE id = 2 AND local_id = 3 AND visitante_id = 4)
    AND NOT EXISTS (SELECT 1 FROM evento WHERE partido_id = 2 AND tipo = 'roja');
