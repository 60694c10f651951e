-- Lanes and run control (see the SQLite step of the same number, which had to rebuild tables
-- that PostgreSQL already created in their final shape).

ALTER TABLE ejecucion ADD COLUMN anfitrion text;

CREATE INDEX entrega_arrendada ON entrega (canal, ejecucion_id, aviso_id)
    WHERE estado = 'pendiente' AND arrendado_hasta IS NOT NULL;
CREATE INDEX entrega_arrendatario ON entrega (arrendatario) WHERE arrendatario IS NOT NULL;

-- Dispatchers LISTEN instead of polling: a delivery that becomes due wakes them when its
-- transaction commits (PostgreSQL folds repeats within one transaction into one). Only rows
-- left pending ring: an outcome being recorded must not wake every other dispatcher.
-- One function for every such ring: the trigger names the channel.
CREATE FUNCTION marcador_avisar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_ARGV[0], '');
    RETURN NULL;
END
$$;
CREATE TRIGGER entrega_nueva AFTER INSERT OR UPDATE OF estado, proximo_intento ON entrega
    FOR EACH ROW WHEN (NEW.estado = 'pendiente')
    EXECUTE FUNCTION marcador_avisar('marcador_entregas');

-- A stop request is a row update plus a notification to the owner, wherever it runs
-- (signals do not cross machines); the payload is the run's id.
CREATE FUNCTION marcador_avisar_parada() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('marcador_parar', CAST(NEW.id AS text));
    RETURN NULL;
END
$$;
CREATE TRIGGER ejecucion_parada AFTER UPDATE OF cancelacion_pedida ON ejecucion
    FOR EACH ROW WHEN (NEW.cancelacion_pedida IS NOT NULL
        AND OLD.cancelacion_pedida IS DISTINCT FROM NEW.cancelacion_pedida)
    EXECUTE FUNCTION marcador_avisar_parada();
