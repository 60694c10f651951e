-- The notices of every moment a fan follows (contract.md): a player sent off («Tarjeta roja»),
-- a side's lineup published («Alineaciones»), a kick-off coming («Empieza pronto»).
ALTER TABLE aviso DROP CONSTRAINT aviso_tipo_check;
ALTER TABLE aviso ADD CONSTRAINT aviso_tipo_check
    CHECK (tipo IN ('gol', 'prueba', 'anulado', 'corregido', 'inicio', 'descanso', 'prorroga',
        'penaltis', 'final', 'roja', 'alineacion', 'recordatorio'));
-- A channel's delay against spoilers (`--retraso SEGUNDOS`): its deliveries are due that long
-- after the notice.
ALTER TABLE canal ADD COLUMN retraso double precision NOT NULL DEFAULT 0 CHECK (retraso >= 0);
-- How long before kick-off its reminders come (`--antes`); NULL: 15 minutes.
ALTER TABLE canal ADD COLUMN antes double precision CHECK (antes IS NULL OR antes > 0);
-- One reminder per match, whichever process queues it first.
CREATE UNIQUE INDEX aviso_recordatorio ON aviso (partido_id) WHERE tipo = 'recordatorio';
