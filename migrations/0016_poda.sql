-- When the store was last pruned (safety.md), by the store's clock: the commands that prune as
-- they start (`jugar`, `avisos enviar`) and the dispatchers that prune as they run do it at most
-- once a minute between them, instead of one write transaction of six deletions per command.
-- One row, claimed by one UPDATE; changing a retention setting still prunes at once.
--
-- Numbered as PostgreSQL's (one history per store, architecture.md). Until the histories were
-- aligned this step was SQLite's 0014: a database it built already has the table and its row,
-- and gets here by the version alone, so both statements leave an existing table as it is.
CREATE TABLE IF NOT EXISTS poda (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    ultima REAL NOT NULL
);
INSERT OR IGNORE INTO poda (id, ultima) VALUES (1, 0);
