-- Extra time and the shoot-out of a live match (contract.md: «Prórroga», «Penaltis»), its added
-- time (`45+2`), and the notices they bring: a goal's correction («Gol corregido», under the
-- identifier the goal was first notified with), the start of extra time and of the shoot-out.
ALTER TABLE partido DROP CONSTRAINT partido_directo_check;
ALTER TABLE partido ADD CONSTRAINT partido_directo_check
    CHECK (directo IN ('programado', 'en_juego', 'descanso', 'prorroga', 'penaltis', 'terminado',
        'suspendido'));
-- The added time of the minute being played (`45+2` is 45 and 2).
ALTER TABLE partido ADD COLUMN anadido_directo bigint;
ALTER TABLE aviso DROP CONSTRAINT aviso_tipo_check;
ALTER TABLE aviso ADD CONSTRAINT aviso_tipo_check
    CHECK (tipo IN ('gol', 'prueba', 'anulado', 'corregido', 'inicio', 'descanso', 'prorroga',
        'penaltis', 'final'));
