-- Runs: each `jugar` of a match is a run with its own short code. Minute, score and last notice
-- of a run are written together in the transaction of each minute, so a killed process leaves
-- the run at its last whole minute, ready for `jugar --reanudar`.

CREATE TABLE ejecucion (
    id INTEGER PRIMARY KEY,
    partido_id INTEGER NOT NULL REFERENCES partido (id) ON DELETE CASCADE,
    -- Short code for people reading the log; not unique across all runs, ids are.
    codigo TEXT NOT NULL,
    duracion INTEGER NOT NULL CHECK (duracion IN (60, 90, 120)),
    -- 1 when `--duracion` chose it: the run does not follow `ajustes duracion`.
    duracion_fija INTEGER NOT NULL DEFAULT 0 CHECK (duracion_fija IN (0, 1)),
    ms_por_minuto INTEGER NOT NULL DEFAULT 0 CHECK (ms_por_minuto >= 0),
    estado TEXT NOT NULL CHECK (estado IN ('sin_empezar', 'en_juego', 'terminado', 'cancelado')),
    minuto INTEGER NOT NULL DEFAULT 0 CHECK (minuto BETWEEN 0 AND duracion),
    goles_local INTEGER NOT NULL DEFAULT 0,
    goles_visitante INTEGER NOT NULL DEFAULT 0,
    mano_local INTEGER NOT NULL DEFAULT 0,
    mano_visitante INTEGER NOT NULL DEFAULT 0,
    ultimo_aviso TEXT NOT NULL DEFAULT 'ninguno',
    -- The owning process: its pid and its start time (field 22 of /proc/<pid>/stat), so a
    -- recycled pid is not mistaken for the owner.
    pid INTEGER,
    pid_inicio INTEGER,
    -- Heartbeat: when the owner last committed a minute.
    latido TEXT,
    -- Set by another process to stop this run: 'reemplazo' (a new jugar of the same match) or
    -- 'duracion' (the duration setting changed). The owner checks it in every minute's
    -- transaction and is woken by SIGUSR1.
    cancelacion_pedida TEXT CHECK (cancelacion_pedida IN ('reemplazo', 'duracion')),
    empezada TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    acabada TEXT
);

CREATE INDEX ejecucion_partido ON ejecucion (partido_id, id);
CREATE INDEX ejecucion_en_juego ON ejecucion (estado) WHERE estado = 'en_juego';
