-- «Último aviso» completes the newest change of its run (migration 0009): without an index
-- that leads with the run, the planner answers `ORDER BY id DESC LIMIT 1` for one run by
-- reading the whole log (up to 20,000 rows kept) and sorting it, 1.5 ms at 6,600 rows, six
-- times a match. With it, the newest change of a run is one index probe. SQLite walks its
-- rowids backwards and stops at the first match, so its schema does not change here.
CREATE INDEX cambio_ejecucion ON cambio (ejecucion_id, id);
