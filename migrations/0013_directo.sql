-- Live feeds (directo.md): the sources, the matches each follows with its last snapshot, the
-- notices those matches send, and what each channel chooses to get.
CREATE TABLE fuente (
    id INTEGER PRIMARY KEY,
    nombre TEXT NOT NULL UNIQUE CHECK (length(trim(nombre)) > 0),
    url TEXT NOT NULL,
    formato TEXT NOT NULL CHECK (formato IN ('football-data', 'openfootball')),
    -- The provider's key (football-data's X-Auth-Token), if any.
    clave TEXT,
    -- Seconds between polls.
    cada REAL NOT NULL CHECK (cada > 0),
    -- The validators of the last answer, sent back as If-None-Match / If-Modified-Since.
    etag TEXT,
    modificado TEXT,
    -- When the next poll is due (after a 429 or a failure, later than `cada`).
    proximo_sondeo REAL NOT NULL DEFAULT 0,
    -- One poller at a time, whatever the processes: a lease, like a delivery's.
    arrendatario TEXT,
    arrendado_hasta REAL,
    ultimo_sondeo REAL,
    ultimo_estado TEXT,
    fallos_seguidos INTEGER NOT NULL DEFAULT 0,
    sondeos INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE seguimiento (
    id INTEGER PRIMARY KEY,
    fuente_id INTEGER NOT NULL REFERENCES fuente (id) ON DELETE CASCADE,
    -- The provider's id of the match (football-data), or its natural key (openfootball).
    clave_externa TEXT NOT NULL,
    partido_id INTEGER NOT NULL REFERENCES partido (id) ON DELETE CASCADE,
    -- The last snapshot (JSON): state, minute, score, goals, what was already notified.
    foto TEXT NOT NULL,
    UNIQUE (fuente_id, clave_externa)
);
CREATE INDEX seguimiento_partido ON seguimiento (partido_id);
ALTER TABLE partido ADD COLUMN directo TEXT
    CHECK (directo IN ('programado', 'en_juego', 'descanso', 'terminado', 'suspendido'));
ALTER TABLE partido ADD COLUMN minuto_directo INTEGER;
-- `--avisar` (a comma list, NULL: goles,anulados) and `--horas-tranquilas` (HH:MM-HH:MM).
ALTER TABLE canal ADD COLUMN avisar TEXT;
-- A notification delivered in its channel's quiet hours: the page shows it silently.
ALTER TABLE cambio ADD COLUMN silencioso INTEGER;
ALTER TABLE canal ADD COLUMN horas_tranquilas TEXT;
-- New kinds of notice, and the live match a notice comes from: a table rebuild (SQLite cannot
-- change a CHECK), with foreign keys off as migrations run.
CREATE TABLE aviso_nuevo (
    id INTEGER PRIMARY KEY,
    ejecucion_id INTEGER REFERENCES ejecucion (id) ON DELETE CASCADE,
    partido_id INTEGER,
    tipo TEXT NOT NULL DEFAULT 'gol'
        CHECK (tipo IN ('gol', 'prueba', 'anulado', 'inicio', 'descanso', 'final')),
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
    motivo_adjunto)
SELECT id, ejecucion_id, partido_id, tipo, identificador, titulo, cuerpo, minuto, anadido, jugador,
    equipo, marcador_local, marcador_visitante, adjunto, creado, enriquecido, motivo_adjunto
FROM aviso;
DROP TABLE aviso;
ALTER TABLE aviso_nuevo RENAME TO aviso;
CREATE INDEX aviso_creado ON aviso (creado);
CREATE INDEX aviso_de_seguimiento ON aviso (seguimiento_id) WHERE seguimiento_id IS NOT NULL;
