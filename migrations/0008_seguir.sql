-- Fan views and following (fans.md): a notice may be a channel test, not a goal of a run.
-- `aviso` is rebuilt (foreign keys are off during migrations, so its deliveries stay) with the
-- run and the match optional and a kind: 'gol' or 'prueba'.

CREATE TABLE aviso_nuevo (
    id INTEGER PRIMARY KEY,
    ejecucion_id INTEGER REFERENCES ejecucion (id) ON DELETE CASCADE,
    partido_id INTEGER,
    tipo TEXT NOT NULL DEFAULT 'gol' CHECK (tipo IN ('gol', 'prueba')),
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
    UNIQUE (ejecucion_id, identificador)
);
INSERT INTO aviso_nuevo (id, ejecucion_id, partido_id, identificador, titulo, cuerpo, minuto,
        anadido, jugador, equipo, marcador_local, marcador_visitante, adjunto, creado,
        enriquecido, motivo_adjunto)
    SELECT id, ejecucion_id, partido_id, identificador, titulo, cuerpo, minuto, anadido, jugador,
        equipo, marcador_local, marcador_visitante, adjunto, creado, enriquecido, motivo_adjunto
    FROM aviso;
DROP TABLE aviso;
ALTER TABLE aviso_nuevo RENAME TO aviso;
CREATE INDEX aviso_creado ON aviso (creado);

-- Fan views look matches up by team and date.
CREATE INDEX partido_fecha ON partido (fecha);

-- What each channel follows: one row per team, competition or match. `clave` is the name as
-- compared (no case, accents or punctuation), computed by marcador (ClaveDeNombre).
CREATE TABLE canal_filtro (
    canal TEXT NOT NULL REFERENCES canal (nombre) ON DELETE CASCADE ON UPDATE CASCADE,
    clase TEXT NOT NULL CHECK (clase IN ('equipo', 'competicion', 'partido')),
    valor TEXT NOT NULL,
    clave TEXT NOT NULL,
    PRIMARY KEY (canal, clase, clave)
) WITHOUT ROWID;
ALTER TABLE canal DROP COLUMN filtros;
