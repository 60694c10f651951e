-- Rich notices: whether each notice went out with its attachment or as the original, and why.
-- NULL: no attachment, or not tried yet; 1: enriched; 0: delivered as the original.
ALTER TABLE aviso ADD COLUMN enriquecido INTEGER CHECK (enriquecido IN (0, 1));
ALTER TABLE aviso ADD COLUMN motivo_adjunto TEXT;
