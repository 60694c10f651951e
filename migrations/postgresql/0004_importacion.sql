-- Imported matches' metadata (see the SQLite step of the same number).

ALTER TABLE partido ADD COLUMN ronda text;
ALTER TABLE partido ADD COLUMN fecha text;
ALTER TABLE partido ADD COLUMN hora text;
ALTER TABLE partido ADD COLUMN grupo text;
ALTER TABLE partido ADD COLUMN estadio text;
ALTER TABLE partido ADD COLUMN ft_local bigint;
ALTER TABLE partido ADD COLUMN ft_visitante bigint;
ALTER TABLE partido ADD COLUMN et_local bigint;
ALTER TABLE partido ADD COLUMN et_visitante bigint;
ALTER TABLE partido ADD COLUMN penaltis_local bigint;
ALTER TABLE partido ADD COLUMN penaltis_visitante bigint;
ALTER TABLE partido ADD COLUMN con_guion bigint NOT NULL DEFAULT 1;
ALTER TABLE partido ADD COLUMN clave text;

CREATE UNIQUE INDEX partido_clave ON partido (clave);
CREATE INDEX partido_competicion ON partido (competicion, id);
