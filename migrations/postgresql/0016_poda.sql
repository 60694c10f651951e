-- When the store was last pruned (safety.md), by the store's clock: the commands that prune as
-- they start (`jugar`, `avisos enviar`) and the dispatchers that prune as they run do it at most
-- once a minute between them, instead of one write transaction of six deletions per command.
-- One row, claimed by one UPDATE; changing a retention setting still prunes at once.
CREATE TABLE poda (
    id integer PRIMARY KEY CHECK (id = 1),
    ultima double precision NOT NULL
);
INSERT INTO poda (id, ultima) VALUES (1, 0);
