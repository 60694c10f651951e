-- Growth (see the SQLite step of the same number).

CREATE TABLE entrega_podada (
    estado text PRIMARY KEY,
    cuantas bigint NOT NULL CHECK (cuantas >= 0)
);

CREATE INDEX registro_momento ON registro (momento);
CREATE INDEX aviso_creado ON aviso (creado);
