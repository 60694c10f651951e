-- Attachments' outcome (see the SQLite step of the same number).

ALTER TABLE aviso ADD COLUMN enriquecido bigint CHECK (enriquecido IN (0, 1));
ALTER TABLE aviso ADD COLUMN motivo_adjunto text;
