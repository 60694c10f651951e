-- Red cards in a match's script (contract.md: «Tarjeta roja»): a scripted match plays them
-- minute by minute like its goals, and a live match keeps the ones its feed gave, for the
-- page's timeline, with its substitutions and its goals' assists. A card is a row of `evento`
-- with `tipo = 'roja'`: the player sent off and his side, `doble_amarilla` for a second yellow;
-- a substitution `tipo = 'cambio'`: the player coming on, `sale` the one going off; a goal's
-- `asistencia` who made the pass. Goal queries read `tipo = 'gol'` only.
ALTER TABLE evento DROP CONSTRAINT evento_tipo_check;
ALTER TABLE evento ADD CONSTRAINT evento_tipo_check CHECK (tipo IN ('gol', 'roja', 'cambio'));
ALTER TABLE evento ADD COLUMN doble_amarilla bigint NOT NULL DEFAULT 0
    CHECK (doble_amarilla IN (0, 1));
ALTER TABLE evento ADD COLUMN asistencia text;
ALTER TABLE evento ADD COLUMN sale text;
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
