-- Fenced ownership (architecture.md): the token of the process playing a run, chosen when it starts
-- or takes the run over. Every write of the run (minute, heartbeat, end) is conditioned on it,
-- so a process that lost the run writes nothing more.
ALTER TABLE ejecucion ADD COLUMN dueno text;

-- Exactly once across a lost COMMIT reply: every write transaction inserts its request id
-- before committing, so a client whose connection broke during COMMIT asks, once reconnected,
-- whether the id is here (committed: nothing to do again) or not (rolled back: run it again).
CREATE TABLE peticion (
    id text PRIMARY KEY,
    creada timestamptz NOT NULL DEFAULT clock_timestamp()
);
