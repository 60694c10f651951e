-- Goal notices: a durable outbox. The engine inserts one `aviso` per scripted goal in the same
-- transaction as that minute's score, and one `entrega` per enabled channel; dispatchers claim
-- deliveries with a lease, deliver, and record the result per channel.

-- Notification channels and their settings (a JSON object: url, directorio, bundle…).
CREATE TABLE canal (
    nombre TEXT PRIMARY KEY,
    tipo TEXT NOT NULL CHECK (tipo IN ('registro', 'escritorio', 'webhook', 'apns')),
    activo INTEGER NOT NULL DEFAULT 1 CHECK (activo IN (0, 1)),
    ajustes TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(ajustes))
) WITHOUT ROWID;

-- The log channel is on by default: it is the lesson's «notificación «¡Gol!» enviada» line.
INSERT INTO canal (nombre, tipo) VALUES ('registro', 'registro');

CREATE TABLE aviso (
    id INTEGER PRIMARY KEY,
    ejecucion_id INTEGER NOT NULL REFERENCES ejecucion (id) ON DELETE CASCADE,
    partido_id INTEGER NOT NULL,
    -- gol-<minuto>-<jugador>: unique per run, so enqueueing the same goal twice is a no-op.
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
    -- Unix time in seconds (fractional): time-to-live and latency are computed from it.
    creado REAL NOT NULL,
    UNIQUE (ejecucion_id, identificador)
);

CREATE TABLE entrega (
    aviso_id INTEGER NOT NULL REFERENCES aviso (id) ON DELETE CASCADE,
    canal TEXT NOT NULL,
    estado TEXT NOT NULL DEFAULT 'pendiente'
        CHECK (estado IN ('pendiente', 'entregada', 'fallida', 'descartada', 'caducada')),
    intentos INTEGER NOT NULL DEFAULT 0,
    proximo_intento REAL NOT NULL,
    -- The lease: who claimed it and until when (unix seconds). An expired lease means the
    -- claimer died; the delivery is claimable again and goes out with the same identifier.
    arrendatario TEXT,
    arrendado_hasta REAL,
    ultimo_error TEXT,
    entregada_en REAL,
    PRIMARY KEY (aviso_id, canal)
) WITHOUT ROWID;

CREATE INDEX entrega_pendiente ON entrega (proximo_intento) WHERE estado = 'pendiente';
CREATE INDEX entrega_estado ON entrega (estado);
