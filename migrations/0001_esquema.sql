-- Base schema: teams, players, matches and their scripted events, settings and the log.

CREATE TABLE equipo (
    id INTEGER PRIMARY KEY,
    nombre TEXT NOT NULL UNIQUE CHECK (length(trim(nombre)) > 0)
);

-- A player belongs to one team; an own goal's player belongs to the side NOT credited.
CREATE TABLE jugador (
    id INTEGER PRIMARY KEY,
    nombre TEXT NOT NULL CHECK (length(trim(nombre)) > 0),
    equipo_id INTEGER NOT NULL REFERENCES equipo (id),
    UNIQUE (equipo_id, nombre)
);

CREATE TABLE partido (
    id INTEGER PRIMARY KEY,
    local_id INTEGER NOT NULL REFERENCES equipo (id),
    visitante_id INTEGER NOT NULL REFERENCES equipo (id),
    competicion TEXT,
    -- 1 when the match went to extra time: only then may it be played for 120 minutes.
    prorroga INTEGER NOT NULL DEFAULT 0 CHECK (prorroga IN (0, 1)),
    CHECK (local_id <> visitante_id)
);

-- The script of a match. `orden` keeps the file's order for goals of the same minute.
CREATE TABLE evento (
    id INTEGER PRIMARY KEY,
    partido_id INTEGER NOT NULL REFERENCES partido (id) ON DELETE CASCADE,
    orden INTEGER NOT NULL,
    tipo TEXT NOT NULL DEFAULT 'gol' CHECK (tipo IN ('gol')),
    minuto INTEGER NOT NULL CHECK (minuto BETWEEN 1 AND 120),
    anadido INTEGER NOT NULL DEFAULT 0 CHECK (anadido >= 0),
    jugador_id INTEGER NOT NULL REFERENCES jugador (id),
    -- The side credited with the goal.
    lado TEXT NOT NULL CHECK (lado IN ('local', 'visitante')),
    penalti INTEGER NOT NULL DEFAULT 0 CHECK (penalti IN (0, 1)),
    en_propia_puerta INTEGER NOT NULL DEFAULT 0 CHECK (en_propia_puerta IN (0, 1)),
    adjunto TEXT,
    UNIQUE (partido_id, orden)
);

CREATE INDEX evento_jugador ON evento (jugador_id);

CREATE TABLE ajuste (
    clave TEXT PRIMARY KEY,
    valor TEXT NOT NULL
) WITHOUT ROWID;

-- Every line the program logs, newest last. No foreign key: the log outlives the matches it
-- mentions (it survives --reiniciar-datos).
CREATE TABLE registro (
    id INTEGER PRIMARY KEY,
    momento TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    partido_id INTEGER,
    linea TEXT NOT NULL
);

CREATE INDEX registro_partido ON registro (partido_id, id);
