-- Kick-off as an instant (import.md): seconds since 1970 UTC, or the venue's wall time read as
-- UTC when the file gives no offset. Lists sort by it and date filters look it up in the index.
-- Set at import; rows imported before this version are filled in when the store is opened.
ALTER TABLE partido ADD COLUMN inicio BIGINT;
CREATE INDEX partido_por_inicio ON partido (inicio, id);
CREATE INDEX partido_sin_inicio ON partido (id) WHERE inicio IS NULL AND fecha IS NOT NULL;
