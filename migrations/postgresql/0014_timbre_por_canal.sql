-- A delivery that becomes due rings with its channel's name as the payload (issue 25): each
-- dispatcher wakes only the lane of that channel, not every lane it has. PostgreSQL folds
-- identical notifications of one transaction, so a minute with goals for five channels sends
-- five. PostgreSQL only: SQLite's dispatchers poll, and its schema does not change here.
CREATE OR REPLACE FUNCTION marcador_avisar_canal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('marcador_entregas', NEW.canal);
    RETURN NULL;
END
$$;
DROP TRIGGER entrega_nueva ON entrega;
CREATE TRIGGER entrega_nueva AFTER INSERT OR UPDATE OF estado, proximo_intento ON entrega
    FOR EACH ROW WHEN (NEW.estado = 'pendiente')
    EXECUTE FUNCTION marcador_avisar_canal();
