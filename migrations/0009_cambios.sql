-- The screen (screen.md): every change a page shows, in commit order, each with an id that a
-- reconnecting page sends back (`Last-Event-ID`) to get exactly what it missed.
--
-- Runs are written by many statements in several processes (minutes, hand goals, cancellation,
-- replacement), so their changes are recorded by triggers, in the writer's own transaction: no
-- writer can forget one, and a rolled-back change leaves no event. SQLite has one writer at a
-- time, so ids grow in commit order and a reader never sees a later id before an earlier one.
-- AUTOINCREMENT: ids are never reused after old rows are pruned.

CREATE TABLE cambio (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- 'partido': a run's standing changed (a snapshot of it below); 'notificacion': the
    -- `navegador` channel delivered a notice; 'ajustes': the settings changed; 'partidos': the
    -- list of matches changed (import, reset).
    clase TEXT NOT NULL CHECK (clase IN ('partido', 'notificacion', 'ajustes', 'partidos')),
    partido_id INTEGER,
    ejecucion_id INTEGER,
    aviso_id INTEGER,
    estado TEXT,
    minuto INTEGER,
    goles_local INTEGER,
    goles_visitante INTEGER,
    mano_local INTEGER,
    mano_visitante INTEGER,
    duracion INTEGER,
    ultimo_aviso TEXT,
    -- The attachment's local copy for a notification, when it was fetched.
    imagen TEXT,
    creado TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TRIGGER cambio_ejecucion_nueva AFTER INSERT ON ejecucion
BEGIN
    INSERT INTO cambio (clase, partido_id, ejecucion_id, estado, minuto, goles_local,
        goles_visitante, mano_local, mano_visitante, duracion, ultimo_aviso)
    VALUES ('partido', NEW.partido_id, NEW.id, NEW.estado, NEW.minuto, NEW.goles_local,
        NEW.goles_visitante, NEW.mano_local, NEW.mano_visitante, NEW.duracion, NEW.ultimo_aviso);
END;

-- Only what a page shows: the heartbeat, `ultimo_aviso` or a cancellation request alone make
-- no event, and neither does an update that changes nothing.
CREATE TRIGGER cambio_ejecucion AFTER UPDATE OF estado, minuto, goles_local, goles_visitante,
    mano_local, mano_visitante, duracion ON ejecucion
WHEN OLD.estado IS NOT NEW.estado OR OLD.minuto IS NOT NEW.minuto
    OR OLD.goles_local IS NOT NEW.goles_local OR OLD.goles_visitante IS NOT NEW.goles_visitante
    OR OLD.mano_local IS NOT NEW.mano_local OR OLD.mano_visitante IS NOT NEW.mano_visitante
    OR OLD.duracion IS NOT NEW.duracion
BEGIN
    INSERT INTO cambio (clase, partido_id, ejecucion_id, estado, minuto, goles_local,
        goles_visitante, mano_local, mano_visitante, duracion, ultimo_aviso)
    VALUES ('partido', NEW.partido_id, NEW.id, NEW.estado, NEW.minuto, NEW.goles_local,
        NEW.goles_visitante, NEW.mano_local, NEW.mano_visitante, NEW.duracion, NEW.ultimo_aviso);
END;

-- «Último aviso» is written right after the minute, in the same transaction: it completes that
-- minute's change (still unseen by any reader) instead of making another.
CREATE TRIGGER cambio_ultimo_aviso AFTER UPDATE OF ultimo_aviso ON ejecucion
WHEN OLD.ultimo_aviso IS NOT NEW.ultimo_aviso
BEGIN
    UPDATE cambio SET ultimo_aviso = NEW.ultimo_aviso
    WHERE id = (SELECT id FROM cambio WHERE ejecucion_id = NEW.id ORDER BY id DESC LIMIT 1);
END;
