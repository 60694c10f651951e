-- Imported matches: where they come from, their real result, and a natural key so importing
-- the same file again adds nothing.

ALTER TABLE partido ADD COLUMN ronda TEXT;
ALTER TABLE partido ADD COLUMN fecha TEXT;
ALTER TABLE partido ADD COLUMN hora TEXT;
ALTER TABLE partido ADD COLUMN grupo TEXT;
ALTER TABLE partido ADD COLUMN estadio TEXT;
-- The file's result: full time, extra time and penalty shoot-out (NULL when not given). A
-- shoot-out is result information only: its kicks are not goals to play.
ALTER TABLE partido ADD COLUMN ft_local INTEGER;
ALTER TABLE partido ADD COLUMN ft_visitante INTEGER;
ALTER TABLE partido ADD COLUMN et_local INTEGER;
ALTER TABLE partido ADD COLUMN et_visitante INTEGER;
ALTER TABLE partido ADD COLUMN penaltis_local INTEGER;
ALTER TABLE partido ADD COLUMN penaltis_visitante INTEGER;
-- 0 for a match imported without goal details: it has no script to play.
ALTER TABLE partido ADD COLUMN con_guion INTEGER NOT NULL DEFAULT 1;
-- competition|date|home|away: the same match in the same competition is imported once.
ALTER TABLE partido ADD COLUMN clave TEXT;

CREATE UNIQUE INDEX partido_clave ON partido (clave);
CREATE INDEX partido_competicion ON partido (competicion, id);
