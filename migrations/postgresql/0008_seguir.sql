-- Following (see the SQLite step of the same number).

CREATE INDEX partido_fecha ON partido (fecha);

CREATE TABLE canal_filtro (
    canal text NOT NULL REFERENCES canal (nombre) ON DELETE CASCADE ON UPDATE CASCADE,
    clase text NOT NULL CHECK (clase IN ('equipo', 'competicion', 'partido')),
    valor text NOT NULL,
    clave text NOT NULL,
    PRIMARY KEY (canal, clase, clave)
);
