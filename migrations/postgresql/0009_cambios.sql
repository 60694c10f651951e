-- The screen's change log (see the SQLite step of the same number).
--
-- SQLite has one writer at a time, so its ids follow commit order by themselves. Here writers
-- run concurrently and a sequence hands out ids in insertion order, not commit order: a page
-- could then skip a change that commits late with a smaller id. So the id is taken under an
-- advisory lock held until commit: every transaction that appends changes commits in the order
-- of its ids, and `Last-Event-ID` replays without gap or repeat here too.

CREATE SEQUENCE cambio_id;

CREATE TABLE cambio (
    id bigint PRIMARY KEY,
    clase text NOT NULL CHECK (clase IN ('partido', 'notificacion', 'ajustes', 'partidos')),
    partido_id bigint,
    ejecucion_id bigint,
    aviso_id bigint,
    estado text,
    minuto bigint,
    goles_local bigint,
    goles_visitante bigint,
    mano_local bigint,
    mano_visitante bigint,
    duracion bigint,
    ultimo_aviso text,
    imagen text,
    creado text NOT NULL DEFAULT marcador_ahora()
);

CREATE FUNCTION marcador_numerar_cambio() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(4242, 1);
    NEW.id := nextval('cambio_id');
    RETURN NEW;
END
$$;
CREATE TRIGGER cambio_numerado BEFORE INSERT ON cambio
    FOR EACH ROW EXECUTE FUNCTION marcador_numerar_cambio();

-- `servir` LISTENs instead of polling.
CREATE TRIGGER cambio_nuevo AFTER INSERT ON cambio
    FOR EACH STATEMENT EXECUTE FUNCTION marcador_avisar('marcador_cambios');

CREATE FUNCTION marcador_cambio_de_ejecucion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO cambio (clase, partido_id, ejecucion_id, estado, minuto, goles_local,
        goles_visitante, mano_local, mano_visitante, duracion, ultimo_aviso)
    VALUES ('partido', NEW.partido_id, NEW.id, NEW.estado, NEW.minuto, NEW.goles_local,
        NEW.goles_visitante, NEW.mano_local, NEW.mano_visitante, NEW.duracion, NEW.ultimo_aviso);
    RETURN NULL;
END
$$;
CREATE TRIGGER cambio_ejecucion_nueva AFTER INSERT ON ejecucion
    FOR EACH ROW EXECUTE FUNCTION marcador_cambio_de_ejecucion();
-- Only what a page shows, and only when it changed.
CREATE TRIGGER cambio_ejecucion AFTER UPDATE OF estado, minuto, goles_local, goles_visitante,
    mano_local, mano_visitante, duracion ON ejecucion
    FOR EACH ROW WHEN (OLD.estado IS DISTINCT FROM NEW.estado
        OR OLD.minuto IS DISTINCT FROM NEW.minuto
        OR OLD.goles_local IS DISTINCT FROM NEW.goles_local
        OR OLD.goles_visitante IS DISTINCT FROM NEW.goles_visitante
        OR OLD.mano_local IS DISTINCT FROM NEW.mano_local
        OR OLD.mano_visitante IS DISTINCT FROM NEW.mano_visitante
        OR OLD.duracion IS DISTINCT FROM NEW.duracion)
    EXECUTE FUNCTION marcador_cambio_de_ejecucion();

-- «Último aviso» completes its minute's change, written in the same transaction.
CREATE FUNCTION marcador_ultimo_aviso() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE cambio SET ultimo_aviso = NEW.ultimo_aviso
    WHERE id = (SELECT id FROM cambio WHERE ejecucion_id = NEW.id ORDER BY id DESC LIMIT 1);
    RETURN NULL;
END
$$;
CREATE TRIGGER cambio_ultimo_aviso AFTER UPDATE OF ultimo_aviso ON ejecucion
    FOR EACH ROW WHEN (OLD.ultimo_aviso IS DISTINCT FROM NEW.ultimo_aviso)
    EXECUTE FUNCTION marcador_ultimo_aviso();
