-- Extra time and the shoot-out of a live match (contract.md: «Prórroga», «Penaltis»), its added
-- time (`45+2`), and the notices they bring: a goal's correction («Gol corregido», under the
-- identifier the goal was first notified with), the start of extra time and of the shoot-out.
-- SQLite cannot change a CHECK, so both tables are rebuilt (create, copy, drop, rename) with
-- foreign keys off as migrations run; their indexes are made again.
CREATE TABLE partido_nuevo (
    id INTEGER PRIMARY KEY,
    local_id INTEGER NOT NULL REFERENCES equipo (id),
    visitante_id INTEGER NOT NULL REFERENCES equipo (id),
    competicion TEXT,
    -- 1 when the match went to extra time: only then may it be played for 120 minutes.
    prorroga INTEGER NOT NULL DEFAULT 0 CHECK (prorroga IN (0, 1)),
    ronda TEXT,
    fecha TEXT,
    hora TEXT,
    grupo TEXT,
    estadio TEXT,
    ft_local INTEGER,
    ft_visitante INTEGER,
    et_local INTEGER,
    et_visitante INTEGER,
    penaltis_local INTEGER,
    penaltis_visitante INTEGER,
    con_guion INTEGER NOT NULL DEFAULT 1,
    clave TEXT,
    inicio INTEGER,
    directo TEXT CHECK (directo IN ('programado', 'en_juego', 'descanso', 'prorroga',
        'penaltis', 'terminado', 'suspendido')),
    minuto_directo INTEGER,
    -- The added time of the minute being played (`45+2` is 45 and 2).
    anadido_directo INTEGER,
    CHECK (local_id <> visitante_id)
);
INSERT INTO partido_nuevo (id, local_id, visitante_id, competicion, prorroga, ronda, fecha, hora,
    grupo, estadio, ft_local, ft_visitante, et_local, et_visitante, penaltis_local,
    penaltis_visitante, con_guion, clave, inicio, directo, minuto_directo)
SELECT id, local_id, visitante_id, competicion, prorroga, ronda, fecha, hora, grupo, estadio,
    ft_local, ft_visitante, et_local, et_visitante, penaltis_local, penaltis_visitante,
    con_guion, clave, inicio, directo, minuto_directo
FROM partido;
DROP TABLE partido;
ALTER TABLE partido_nuevo RENAME TO partido;
CREATE UNIQUE INDEX partido_clave ON partido (clave);
CREATE INDEX partido_competicion ON partido (competicion, id);
CREATE INDEX partido_fecha ON partido (fecha);
CREATE INDEX partido_por_inicio ON partido (inicio, id);
CREATE INDEX partido_sin_inicio ON partido (id) WHERE inicio IS NULL AND fecha IS NOT NULL;

CREATE TABLE aviso_nuevo (
    id INTEGER PRIMARY KEY,
    ejecucion_id INTEGER REFERENCES ejecucion (id) ON DELETE CASCADE,
    partido_id INTEGER,
    tipo TEXT NOT NULL DEFAULT 'gol'
        CHECK (tipo IN ('gol', 'prueba', 'anulado', 'corregido', 'inicio', 'descanso',
            'prorroga', 'penaltis', 'final')),
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
