-- Fenced ownership (architecture.md): the token of the process playing a run, chosen when it starts
-- or takes the run over. Every write of the run (minute, heartbeat, end) is conditioned on it,
-- so a process that lost the run writes nothing more.
ALTER TABLE ejecucion ADD COLUMN dueno TEXT;
