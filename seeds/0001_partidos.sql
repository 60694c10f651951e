-- Default matches, loaded into a fresh database and by --reiniciar-datos.
-- Partido 1 is the lessons' screen match: two goals at 10' and two at 35' on purpose.
-- Partido 2 has added-time goals (45+1 listed after 45+2, to prove ordering by offset), a
-- penalty, an own goal and a red card. Partido 3 went to extra time (120 minutes allowed).
-- Luis's goal carries an attachment: gol.gif from this folder, compiled into the binary and
-- named by the `semilla:` scheme, which the dispatcher resolves without touching the disk.

INSERT INTO equipo (id, nombre) VALUES
    (1, 'Rayo FC'),
    (2, 'Toros'),
    (3, 'Águilas CF'),
    (4, 'Cigüeñas FC'),
    (5, 'Dragones del Norte'),
    (6, 'Halcones');

INSERT INTO jugador (id, nombre, equipo_id) VALUES
    (1, 'Ana', 1),
    (2, 'Iván', 2),
    (3, 'Luis', 1),
    (4, 'Sofía', 2),
    (5, 'Marta', 1),
    (6, 'Zoë', 3),
    (7, 'Íñigo', 4),
    (8, 'Chloé', 3),
    (9, 'Björn', 4),
    (10, 'João', 4),
    (11, 'Li Wei', 5),
    (12, 'Ólafur', 6);

INSERT INTO partido (id, local_id, visitante_id, competicion, prorroga) VALUES
    (1, 1, 2, NULL, 0),
    (2, 3, 4, NULL, 0),
    (3, 5, 6, NULL, 1);

INSERT INTO evento (partido_id, orden, minuto, anadido, jugador_id, lado, penalti, en_propia_puerta) VALUES
    (1, 1, 10, 0, 1, 'local', 0, 0),
    (1, 2, 10, 0, 2, 'visitante', 0, 0),
    (1, 3, 35, 0, 3, 'local', 0, 0),
    (1, 4, 35, 0, 4, 'visitante', 0, 0),
    (1, 5, 60, 0, 5, 'local', 0, 0),
    (2, 1, 23, 0, 6, 'local', 0, 0),
    (2, 2, 45, 2, 7, 'visitante', 1, 0),
    (2, 3, 45, 1, 8, 'local', 0, 0),
    (2, 4, 67, 0, 9, 'local', 0, 1),
    (2, 5, 90, 4, 10, 'visitante', 0, 0),
    (3, 1, 30, 0, 11, 'local', 0, 0),
    (3, 2, 88, 0, 12, 'visitante', 0, 0),
    (3, 3, 112, 0, 11, 'local', 0, 0);

-- Partido 2's own-goal scorer is sent off on a second yellow (contract.md: «Tarjeta roja»).
INSERT INTO evento (partido_id, orden, tipo, minuto, anadido, jugador_id, lado, doble_amarilla)
VALUES (2, 6, 'roja', 78, 0, 9, 'visitante', 1);

UPDATE evento SET adjunto = 'semilla:gol.gif' WHERE partido_id = 1 AND orden = 3;
