-- Growth (safety.md): the log keeps the last days or lines the user allows, and delivered
-- notices are pruned after their time-to-live plus a margin, their counts kept here.

CREATE TABLE entrega_podada (
    estado TEXT PRIMARY KEY,
    cuantas INTEGER NOT NULL CHECK (cuantas >= 0)
) WITHOUT ROWID;

CREATE INDEX registro_momento ON registro (momento);
CREATE INDEX aviso_creado ON aviso (creado);
